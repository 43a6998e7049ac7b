package dev.onceproof.bench.exactlyonce;

import dev.onceproof.exactlyonce.ClientStep;
import dev.onceproof.exactlyonce.EoMessage;
import dev.onceproof.exactlyonce.NoteId;
import dev.onceproof.exactlyonce.S3Client;
import dev.onceproof.exactlyonce.S3Server;
import dev.onceproof.exactlyonce.ServerDurableState;
import dev.onceproof.exactlyonce.ServerEffect;
import dev.onceproof.exactlyonce.ServerStep;
import dev.onceproof.exactlyonce.StrategyConfig;
import dev.onceproof.exactlyonce.Verdict;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Strategy 3 on the circle: {@code S3Server} at every server and {@code S3Client} with q slots.
 * As App. A.4 forks {@code ServerSynch(i, c)} for every delivered note i (the "eager" mode of
 * footnote 8 that App. B analyses), the connected server starts a sync round after every
 * successful Deliver and asks its core to authorize the purge of i once every other server has
 * answered that round. A note that finds R full is held by the client and presented again when a
 * purge frees a slot (App. B's reading of L169, notes Z8), so the server's Deliver waits for it.
 *
 * <p>All notes of the run exist on every server before the connection opens (App. B's notes are
 * waiting for the client). Creating them during the run once made {@code S3Server} drop a
 * delivered, unpurged note from K and D when a sync reply built before that note existed arrived
 * after its delivery (the K-difference rule read the note's absence as "purged there"), found with
 * this rig; syncs now carry a watermark ({@code S3StaleSyncProperties} shows the fix and its control).
 */
final class IdListRig extends Rig {

    private final List<S3Server> cores = new ArrayList<>();
    private final S3Client clientCore;
    private final Map<Long, NoteId> roundNote = new HashMap<>();
    private final Map<Long, Integer> replies = new HashMap<>();
    private final Set<NoteId> toAuthorize = new LinkedHashSet<>();
    private EoMessage.NoteDelivery held;
    private final int notes;
    int maxR;

    /** A run with {@code notes} notes waiting on every server. */
    IdListRig(Params p, Circle circle, int notes) {
        super(p, circle);
        StrategyConfig config = config(3).q(p.q());
        for (int i = 0; i < p.N(); i++) {
            cores.add((S3Server) config.server(servers.get(i), clock, ServerDurableState.initial()));
        }
        clientCore = (S3Client) config.client(clock, StrategyConfig.ClientMemory.fresh());
        this.notes = notes;
    }

    @Override
    protected void start() {
        for (int n = 0; n < notes; n++) {
            ServerStep step = cores.get(n % p.N()).createNote(NoteId.global(String.format("n%09d", n)), "note");
            // The replication round to its end at once (replica, ack, commit), as the unmodelled
            // replication protocol would before the run: the note is deliverable everywhere.
            dev.onceproof.exactlyonce.Replication.atOnce(step, s -> cores.get(index(s)));
        }
        clientCore.connect(servers.get(0));
        effects(0, cores.get(0).startSession());
        effects(0, cores.get(0).sendNote());
    }

    @Override
    protected void arrive(int node, EoMessage m) {
        if (node == CLIENT) {
            if (m instanceof EoMessage.NoteDelivery d) {
                present(d);
            } else {
                clientEffects(clientCore.receivePurge((EoMessage.PurgeRequest) m));
                if (held != null) {
                    EoMessage.NoteDelivery h = held;
                    held = null;
                    present(h);
                }
            }
            return;
        }
        S3Server core = cores.get(node);
        if (m instanceof EoMessage.NoteAck a) {
            ServerStep ack = core.receiveAck(a);
            effects(node, ack);
            if (ack.outcome().equals("delivered")) {
                ServerStep sync = core.startSync();
                effects(node, sync);
                long round = -1;
                for (ServerEffect e : sync.effects()) {
                    if (e instanceof ServerEffect.Send s && s.message() instanceof EoMessage.SyncRequest r) {
                        round = r.round();
                    }
                }
                if (round < 0) {
                    toAuthorize.add(a.id()); // no other server: nothing to wait for
                    authorize(node);
                } else {
                    roundNote.put(round, a.id());
                }
            }
            ServerStep next = core.sendNote();
            starved |= next.outcome().equals("idle");
            effects(node, next);
        } else if (m instanceof EoMessage.SyncRequest r) {
            effects(node, core.handleSync(r));
        } else if (m instanceof EoMessage.SyncReply r) {
            effects(node, core.receiveSyncReply(r));
            if (replies.merge(r.round(), 1, Integer::sum) == p.N() - 1) {
                replies.remove(r.round());
                toAuthorize.add(roundNote.remove(r.round()));
            }
            authorize(node);
        } else if (m instanceof EoMessage.PurgeAck a) {
            effects(node, core.receivePurgeAck(a));
        } else {
            throw new IllegalStateException("unexpected " + m.getClass().getSimpleName() + " at server " + node);
        }
    }

    private void present(EoMessage.NoteDelivery d) {
        ClientStep step = clientCore.receiveNote(d);
        if (step.verdict() == Verdict.R_FULL) {
            held = d;
        }
        clientEffects(step);
        maxR = Math.max(maxR, clientCore.stable().r().size());
    }

    /** Asks the core to authorize every note whose round is complete; it decides. */
    private void authorize(int node) {
        toAuthorize.removeIf(i -> {
            ServerStep step = cores.get(node).authorize(i);
            effects(node, step);
            return step.outcome().equals("authorized");
        });
    }
}
