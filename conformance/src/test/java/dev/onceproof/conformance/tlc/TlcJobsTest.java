package dev.onceproof.conformance.tlc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class TlcJobsTest {

    @Test
    void resultsComeBackInTheItemsOrderWhateverOrderTheyFinishIn() {
        List<Integer> items = IntStream.range(0, 8).boxed().toList();
        List<Integer> finished = Collections.synchronizedList(new ArrayList<>());
        List<Integer> out = TlcJobs.map(items, 3, i -> {
            sleep(8 - i); // later items finish first
            return i * i;
        }, (index, r) -> finished.add(index));
        assertThat(out).containsExactly(0, 1, 4, 9, 16, 25, 36, 49);
        assertThat(finished).containsExactlyInAnyOrderElementsOf(items);
    }

    @Test
    void jobsReallyRunSideBySide() throws InterruptedException {
        // Both jobs wait for each other: with one at a time this would time out.
        CountDownLatch both = new CountDownLatch(2);
        List<Boolean> met = TlcJobs.map(List.of(1, 2), 2, i -> {
            both.countDown();
            try {
                return both.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }, (i, r) -> { });
        assertThat(met).containsExactly(true, true);
    }

    @Test
    void theFirstFailureInItemOrderIsThrownAfterEveryJobEnded() {
        AtomicInteger ran = new AtomicInteger();
        assertThatThrownBy(() -> TlcJobs.map(List.of(0, 1, 2, 3), 2, i -> {
            ran.incrementAndGet();
            if (i >= 2) {
                throw new IllegalStateException("job " + i + " failed");
            }
            return i;
        }, (i, r) -> { })).hasMessage("job 2 failed");
        assertThat(ran).hasValue(4);
    }

    @Test
    void zeroJobsIsRefusedNamingTheValue() {
        assertThatThrownBy(() -> TlcJobs.map(List.of(1), 0, i -> i, (i, r) -> { }))
                .hasMessageContaining("jobs is 0");
    }

    private static void sleep(int millis) {
        try {
            Thread.sleep(millis * 5L);
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
