package dev.onceproof.exactlyonce;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The steps every strategy's server core has (App. A's HandleClient and the sync exchange), so a
 * runtime, a simulation or a replayer can drive any of them. Strategy-specific steps (numbering a
 * note, Strategy 3's purge) stay on the classes.
 */
public interface ServerCore {

    ServerStep receiveReplica(EoMessage.Replica m);

    ServerStep startSession();

    /** {@code SendNote(s, i)} with the session loop's own choice of i. */
    ServerStep sendNote();

    ServerStep sendNote(NoteId i);

    ServerStep receiveAck(EoMessage.NoteAck m);

    ServerStep timeout();

    ServerStep endSession();

    ServerStep startSync();

    ServerStep handleSync(EoMessage.SyncRequest m);

    ServerStep receiveSyncReply(EoMessage.SyncReply m);

    ServerDurableState durable();

    /** {@code sess[s].active}. */
    boolean active();

    /** {@code sess[s].pending}. */
    Optional<NoteId> pending();

    /** A created note's step: the durable record first, then a replica to every other server. */
    static ServerStep created(String outcome, ServerConfig config, Note note, ServerEffect record) {
        List<ServerEffect> effects = new ArrayList<>();
        effects.add(record);
        for (ServerId other : config.others()) {
            effects.add(new ServerEffect.Send(new EoMessage.Replica(config.self(), other, note)));
        }
        return new ServerStep(outcome, effects);
    }
}
