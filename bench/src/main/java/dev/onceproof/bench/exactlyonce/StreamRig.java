package dev.onceproof.bench.exactlyonce;

import dev.onceproof.exactlyonce.ClientCore;
import dev.onceproof.exactlyonce.EoMessage;
import dev.onceproof.exactlyonce.EoServer;
import dev.onceproof.exactlyonce.NoteId;
import dev.onceproof.exactlyonce.S0Server;
import dev.onceproof.exactlyonce.S1Server;
import dev.onceproof.exactlyonce.S2Server;
import dev.onceproof.exactlyonce.ServerDurableState;
import dev.onceproof.exactlyonce.ServerStep;
import dev.onceproof.exactlyonce.StrategyConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Strategies 0-2 on the circle: {@code S0Server}/{@code S1Server}/{@code S2Server} at every server,
 * the matching client core, HandleClient's loop (App. A.2: send the next note when the last one's
 * Deliver succeeded). No sync runs during the connection: none of these strategies waits for one
 * (App. B.1: "once a client connects to a server, note delivery can begin").
 */
final class StreamRig extends Rig {

    /** Strategy 2's sequence space: larger than any simulated stream, so no number is reused within a run. */
    static final int W = 1 << 20;
    /** Undelivered notes kept on the servers ahead of the session. */
    private static final int AHEAD = 4;

    private final List<EoServer> cores = new ArrayList<>();
    private final ClientCore clientCore;
    private final int maxNotes;
    private long created;
    private long delivered;

    /** A run that creates at most {@code maxNotes} notes. */
    StreamRig(int strategy, Params p, Circle circle, int maxNotes) {
        super(p, circle);
        this.maxNotes = maxNotes;
        if (strategy > 2) {
            throw new IllegalArgumentException("strategy " + strategy + " is not a stream strategy");
        }
        StrategyConfig config = config(strategy).w(W);
        for (int i = 0; i < p.N(); i++) {
            cores.add(config.server(servers.get(i), clock, ServerDurableState.initial()));
        }
        clientCore = config.client(clock, StrategyConfig.ClientMemory.fresh());
    }

    @Override
    protected void start() {
        supply();
        clientCore.connect(servers.get(0));
        effects(0, cores.get(0).startSession());
        effects(0, cores.get(0).deliverNext());
    }

    @Override
    protected void arrive(int node, EoMessage m) {
        if (node == CLIENT) {
            clientEffects(clientCore.receiveNote((EoMessage.NoteDelivery) m));
            return;
        }
        EoServer core = cores.get(node);
        ServerStep ack = core.receive(m);
        effects(node, ack);
        if (ack.outcome().equals("delivered")) {
            delivered++;
        }
        supply();
        ServerStep next = core.deliverNext();
        starved |= next.outcome().equals("idle");
        effects(node, next);
    }

    /**
     * The Deliver is unacknowledged after the timeout: the core decides (App. A.2: Deliver failed,
     * abort); after an abort the client reconnects to the same server at once and the new session
     * offers what the core still holds in K, the unacknowledged note included.
     */
    @Override
    protected void timedOut(int node) {
        EoServer core = cores.get(node);
        ServerStep t = core.timeout();
        effects(node, t);
        if (!t.outcome().equals("aborted")) {
            return;
        }
        aborts++;
        clientCore.connect(servers.get(node));
        effects(node, core.startSession());
        supply();
        ServerStep next = core.deliverNext();
        starved |= next.outcome().equals("idle");
        effects(node, next);
    }

    /**
     * Keeps {@link #AHEAD} undelivered notes on every server, numbered at origins in turn, up to
     * {@code maxNotes} in all. (The stream servers keep every delivered id, and their durable state
     * is copied at each step, so a run's cost grows with the square of its notes.)
     */
    private void supply() {
        while (created - delivered < AHEAD && created < maxNotes) {
            int origin = (int) (created % p.N());
            EoServer core = cores.get(origin);
            ServerStep step = core.createNote(core.strategy().numbersNotes() ? Optional.empty()
                    : Optional.of(NoteId.global(String.format("n%09d", created))), "note");
            if (!step.outcome().startsWith("created")) {
                throw new IllegalStateException("server " + origin + " could not create a note: " + step.outcome());
            }
            created++;
            // Only the connected server takes steps in a Strategy 0-2 run (no syncs, App. B.1), so the
            // replicas go to it alone: copies on the other servers would change nothing but cost the
            // square of the notes (each replica's durable record copies that server's K).
            replicate(step, (i, r) -> {
                if (i == 0) {
                    cores.get(i).receive(r);
                }
            });
        }
    }
}
