package dev.onceproof.exactlyonce;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * The replication round run to its end at once, for a driver that replicates synchronously (trace
 * replay of the specs' atomic CreateNote, simulations, tests): every replica, acknowledgement and
 * commit among a step's effects is handed to its server's core, and so on for the steps that
 * causes, until none is left. What the spec's atomic CreateNote is in the runtime: the round's
 * steps change nothing a session, a sync or the client can see until its last one, the commit,
 * makes the note deliverable (see {@link S3Server}). A runtime instead sends the messages on its
 * network; a lost one is resent with the next sync.
 */
public final class Replication {

    /** One delivery: {@code message} handed to {@code server}'s core, which took {@code step}. */
    public record Hop(ServerId server, EoMessage message, ServerStep step) {
    }

    private Replication() {
    }

    /**
     * Delivers the round's messages among {@code step}'s effects, and those of the steps they cause,
     * in order (first sent, first delivered). Returns every delivery, for the caller to carry out the
     * steps' other effects (their records) in that order.
     */
    public static List<Hop> atOnce(ServerStep step, Function<ServerId, ? extends EoServer> cores) {
        Objects.requireNonNull(cores, "cores");
        Deque<EoMessage> queue = new ArrayDeque<>(roundMessages(step));
        List<Hop> out = new ArrayList<>();
        while (!queue.isEmpty()) {
            EoMessage m = queue.removeFirst();
            ServerId to = to(m);
            ServerStep taken = cores.apply(to).receive(m);
            out.add(new Hop(to, m, taken));
            queue.addAll(roundMessages(taken));
        }
        return out;
    }

    /** The replicas, acknowledgements and commits a step sends, in its order. */
    public static List<EoMessage> roundMessages(ServerStep step) {
        List<EoMessage> out = new ArrayList<>();
        for (ServerEffect e : step.effects()) {
            if (e instanceof ServerEffect.Send s && isRound(s.message())) {
                out.add(s.message());
            }
        }
        return out;
    }

    /** Whether m is one of the round's messages. */
    public static boolean isRound(EoMessage m) {
        return m instanceof EoMessage.Replica || m instanceof EoMessage.ReplicaAck
                || m instanceof EoMessage.ReplicaCommit;
    }

    /** The server a round message is for. */
    public static ServerId to(EoMessage m) {
        if (m instanceof EoMessage.Replica r) {
            return r.to();
        } else if (m instanceof EoMessage.ReplicaAck a) {
            return a.to();
        } else if (m instanceof EoMessage.ReplicaCommit c) {
            return c.to();
        }
        throw new IllegalArgumentException(m.getClass().getSimpleName() + " is not a replication message");
    }
}
