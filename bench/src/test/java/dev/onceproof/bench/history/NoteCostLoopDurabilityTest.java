package dev.onceproof.bench.history;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.exactlyonce.EoMessage;
import dev.onceproof.exactlyonce.EoServer;
import dev.onceproof.exactlyonce.ServerEffect;
import dev.onceproof.exactlyonce.ServerId;
import dev.onceproof.exactlyonce.Strategy;
import java.util.IdentityHashMap;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The loop's durability point: no message arrives before every record handed over before it was
 * sent is committed, with one note in flight and with many (whose records share commits), and the
 * notes a run counts are durable when it returns. (Control: without the commit in the loop's
 * {@code pump}, the first arrival fails.)
 */
class NoteCostLoopDurabilityTest {

    /** Records as sequence numbers: a message sent after record n may arrive once n is committed. */
    private static final class Spy implements NoteCostLoop.Durability, NoteCostLoop.Wire {
        long appended;
        long committed;
        long commits;
        long arrivals;
        final Map<EoMessage, Long> sentAfter = new IdentityHashMap<>();

        @Override
        public void record(ServerId at, ServerEffect record, EoServer core) {
            appended++;
        }

        @Override
        public void commit() {
            if (committed < appended) {
                commits++;
            }
            committed = appended;
        }

        @Override
        public void sent(EoMessage m) {
            sentAfter.put(m, appended);
        }

        @Override
        public void arrived(EoMessage m) {
            arrivals++;
            assertThat(committed).as("records committed when %s arrives", m.getClass().getSimpleName())
                    .isGreaterThanOrEqualTo(sentAfter.remove(m));
        }
    }

    @ParameterizedTest
    @CsvSource({"S1,1", "S3,1", "S3,20", "S4,1", "S4,20"})
    void noMessageArrivesBeforeTheRecordsBeforeItAreDurable(Strategy s, int inFlight) {
        Spy spy = new Spy();
        long notes = new NoteCostLoop(s, 100, 256, 3, spy).wire(spy).runNotes(400, inFlight);

        assertThat(notes).isEqualTo(400);
        assertThat(spy.arrivals).isGreaterThan(notes);
        assertThat(spy.committed).as("the counted notes' records are durable").isEqualTo(spy.appended).isPositive();
        assertThat(spy.sentAfter).as("every message sent arrived").isEmpty();
        if (inFlight > 1) {
            assertThat(spy.commits).as("notes in flight share commits").isLessThan(spy.appended / 2);
        }
    }
}
