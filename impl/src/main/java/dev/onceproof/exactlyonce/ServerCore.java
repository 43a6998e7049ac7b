package dev.onceproof.exactlyonce;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The spec-named steps Strategies 0-3's server cores share (App. A's HandleClient and the sync
 * exchange), which trace replay calls by the action's name, and their routing from the one step
 * interface {@link EoServer}. Strategy-specific steps (numbering a note, Strategy 3's purge) stay on
 * the classes.
 */
public interface ServerCore extends EoServer {

    /** An acknowledgement, a sync request or reply, a replica; Strategy 3 adds the purge ack. */
    @Override
    default ServerStep receive(EoMessage m) {
        if (m instanceof EoMessage.Replica r) {
            return receiveReplica(r);
        } else if (m instanceof EoMessage.NoteAck a) {
            return receiveAck(a);
        } else if (m instanceof EoMessage.SyncRequest q) {
            return handleSync(q);
        } else if (m instanceof EoMessage.SyncReply r) {
            return receiveSyncReply(r);
        }
        throw EoServer.noStep(strategy(), "receive(" + m.getClass().getSimpleName() + ")",
                "no Strategy 0-3 server receives it");
    }

    /** {@code SendNote(s, i)} with the session loop's choice of i. */
    @Override
    default ServerStep deliverNext() {
        return sendNote();
    }

    /** A sync round: {@code startSync}. */
    @Override
    default ServerStep sync() {
        return startSync();
    }

    @Override
    default ServerStep authorize() {
        throw EoServer.noStep(strategy(), "authorize", "only Strategy 3 purges with the client's consent");
    }

    @Override
    default ServerStep aDeliverOk(long session, NoteId i) {
        throw EoServer.noStep(strategy(), "aDeliverOk", "Strategies 0-3 deliver with Deliver, not aDeliver");
    }

    @Override
    default ServerStep aDeliverErr(long session, NoteId i) {
        throw EoServer.noStep(strategy(), "aDeliverErr", "Strategies 0-3 deliver with Deliver, not aDeliver");
    }

    ServerStep receiveReplica(EoMessage.Replica m);

    @Override
    ServerStep startSession();

    /** {@code SendNote(s, i)} with the session loop's own choice of i. */
    ServerStep sendNote();

    ServerStep sendNote(NoteId i);

    ServerStep receiveAck(EoMessage.NoteAck m);

    @Override
    ServerStep timeout();

    @Override
    ServerStep endSession();

    ServerStep startSync();

    ServerStep handleSync(EoMessage.SyncRequest m);

    ServerStep receiveSyncReply(EoMessage.SyncReply m);

    @Override
    ServerDurableState durable();

    /** {@code sess[s].active}. */
    boolean active();

    /** {@code sess[s].pending}. */
    @Override
    Optional<NoteId> pending();

    /** A created note's step: the durable record first, then a replica to every other server. */
    static ServerStep created(String outcome, ServerConfig config, Note note, ServerEffect record) {
        return created(outcome, config, note, record, EoMessage.NO_ISSUE);
    }

    /** As above, the replicas carrying the note's issue number (Strategy 2, {@link EoMessage.Replica}). */
    static ServerStep created(String outcome, ServerConfig config, Note note, ServerEffect record, long issue) {
        List<ServerEffect> effects = new ArrayList<>();
        effects.add(record);
        for (ServerId other : config.others()) {
            effects.add(new ServerEffect.Send(new EoMessage.Replica(config.self(), other, note, issue)));
        }
        return new ServerStep(outcome, effects);
    }
}
