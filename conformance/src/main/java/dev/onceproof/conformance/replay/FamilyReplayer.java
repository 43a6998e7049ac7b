package dev.onceproof.conformance.replay;

import dev.onceproof.conformance.trace.TraceHeader;
import dev.onceproof.conformance.trace.TraceStep;
import java.util.List;
import java.util.Set;

/**
 * Replays the traces of one spec on its Java core. To add a family: implement this in one class and
 * list it in {@link ReplayerRegistry#standard()}.
 */
public interface FamilyReplayer {

    /** The header's "spec" this replayer handles (SCMP). */
    String spec();

    /** Every action name the spec records in lastAction ("Init" included). */
    Set<String> actions();

    /** A fresh core configured from the header's constants; its first step is the initial state. */
    Session start(TraceHeader header);

    /** One trace being replayed. */
    interface Session {

        /**
         * Performs the step's action on the core (step 0: Init) and compares the core with the step's
         * state. Throwing is allowed for a core that refuses the step; the replayer reports it as a
         * mismatch at that step.
         *
         * @return the fields where the core differs from the trace; empty when they agree
         */
        List<Mismatch> apply(TraceStep step);
    }
}
