package dev.onceproof.exactlyonce;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.exactlyonce.store.ServerStore;
import dev.onceproof.storage.InMemoryOperationLog;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * ServerStep's ordering rule in the concurrent wrapper (issue 19 item 2): steps append under the
 * lock and commit after it, so when the session hands a note to the client another step may have
 * appended a change it has not committed yet; the hand-over, which must stay in the critical
 * section that chose the note (race R3), commits first. The test plays that other step by appending
 * to the shared store without committing, and the client's channel checks, as the message
 * arrives, that everything appended is durable.
 */
class ConcurrentS3ServerDurabilityTest {

    static final ServerId A = ServerId.of("A");
    static final ServerId B = ServerId.of("B");
    static final ClientId C = ClientId.of("c");

    /** Whether every operation appended was durable when each message reached the channel. */
    private static List<Boolean> durableAtHandoff(boolean seam) {
        ManualEoClock clock = new ManualEoClock(0);
        StrategyConfig cfg = Strategy.S3.config(C, new TreeSet<>(List.of(A, B)), 1);
        EoServer a = cfg.server(A, clock, Strategy.S3.initialState());
        ServerStore store = ServerStore.inMemory(new InMemoryOperationLog.Disk("B"));
        List<Boolean> durable = new ArrayList<>();
        ConcurrentS3Server b = new ConcurrentS3Server((S3Server) cfg.server(B, clock, Strategy.S3.initialState()),
                store, ConcurrentS3Server.Handoff.UNDER_LOCK,
                m -> durable.add(store.stats().durableSeq() == store.lastSeq()));
        if (seam) {
            b.handoffBeforeCommit();
        }
        Replication.atOnce(a.createNote(Optional.of(NoteId.global("n")), "n"), s -> s.equals(A) ? a : b);
        b.startSession();
        // Another step's record, appended under the lock and not yet committed (its thread is between
        // the unlock and its commit); its change is a sync round number, which the note does not need,
        // but the rule is about everything appended before the hand-over, whatever it is.
        store.append(new ServerEffect.Record(List.of(new ServerOp.SetRound(1))));
        assertThat(b.deliverNext().outcome()).isEqualTo("sent");
        return durable;
    }

    @Test
    void aNoteReachesTheClientOnlyOnceEverythingAppendedIsDurable() {
        assertThat(durableAtHandoff(false)).containsExactly(true);
    }

    /** Control: with the hand-over before the commit (the seam) the channel sees an append not yet durable. */
    @Test
    void handoffBeforeTheCommitIsCaught() {
        assertThat(durableAtHandoff(true)).containsExactly(false);
    }
}
