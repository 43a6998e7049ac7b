package dev.onceproof.conformance.lincheck.causal;

import org.jetbrains.kotlinx.lincheck.strategy.managed.modelchecking.ModelCheckingOptions;
import org.jetbrains.kotlinx.lincheck.strategy.stress.StressOptions;

/**
 * Bounds for the causal Lincheck tests. The smallest world that shows the hand-off race: two
 * threads of two operations (Receive of A, B, C or the recovered A; Broadcast). A scenario can show
 * it when both threads deliver something that depends on the other's delivery: a Broadcast on each
 * thread (n3's own events 1 and 2, FIFO) in about half the scenarios, A on one and B on the other
 * in about one in five. Measured (machine heavily loaded, load average 25 to 46 on 2 cores, so
 * these are upper bounds): the racy control was caught in the first run, in 197 s including
 * Lincheck's class transformation, with the report "CausalOrder: &lt;&lt;n3,2&gt;&gt; delivered
 * before &lt;&lt;n3,1&gt;&gt;"; the real class passed model checking and stress in 154 s together.
 * Idle timings could not be taken; they must be, against the 20 s budget.
 */
final class CausalLincheckOptions {

    static final int RACY_ITERATIONS = 10;

    private CausalLincheckOptions() {
    }

    static ModelCheckingOptions modelChecking() {
        return new ModelCheckingOptions()
                .sequentialSpecification(SequentialCausal.class)
                .iterations(8)
                .invocationsPerIteration(20)
                .threads(2)
                .actorsPerThread(2)
                .actorsBefore(0)
                .actorsAfter(0);
    }

    static StressOptions stress() {
        return new StressOptions()
                .sequentialSpecification(SequentialCausal.class)
                .iterations(5)
                .invocationsPerIteration(500)
                .threads(2)
                .actorsPerThread(2)
                .actorsBefore(0)
                .actorsAfter(0);
    }
}
