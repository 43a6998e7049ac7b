package dev.onceproof.bench.exactlyonce;

import dev.onceproof.exactlyonce.ClientEffect;
import dev.onceproof.exactlyonce.ClientHistory;
import dev.onceproof.exactlyonce.ConnectStep;
import dev.onceproof.exactlyonce.ConnectVerdict;
import dev.onceproof.exactlyonce.EoMessage;
import dev.onceproof.exactlyonce.GatherClient;
import dev.onceproof.exactlyonce.GatherDurableState;
import dev.onceproof.exactlyonce.GatherServer;
import dev.onceproof.exactlyonce.NoteId;
import dev.onceproof.exactlyonce.S4Server;
import dev.onceproof.exactlyonce.S5Server;
import dev.onceproof.exactlyonce.S6Client;
import dev.onceproof.exactlyonce.S6Server;
import dev.onceproof.exactlyonce.ServerEffect;
import dev.onceproof.exactlyonce.ServerStep;
import dev.onceproof.exactlyonce.StrategyConfig;
import dev.onceproof.exactlyonce.Strategy;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * Strategies 4-6 on the circle: {@code S4Server}/{@code S5Server}/{@code S6Server} at every server and
 * the matching client core. The client connects to server 0 (B) at {@link #t0}; B's core picks the
 * stale servers, the rig carries its D requests and the replies, and once the core ends the gather
 * it asks for {@code aDeliver} one note at a time; the rig carries each call out as a Deliver to the
 * client core and its acknowledgement back ({@code aDeliverOk}), as App. B times it (one note per
 * 2 t_cs). Before {@link #t0} the rig plays App. B's history of the client (Figures B-2, B-3):
 * <ul>
 *   <li>S4: none; the session starts at 0;</li>
 *   <li>S5: the client's previous connection was at A, the server farthest from B (d_AB =
 *       (D/N) floor(N/2)); it ended at 0 and the client reconnects exactly T_r later (the S5 client core
 *       refuses an earlier connect). Every server sends its periodic sync every T_u from a phase of its
 *       own; B's core decides from the timestamps whether A (or any other) is stale;</li>
 *   <li>S6: one previous connection, at A, d' hops from B (d' is continuous, notes Z24: A is placed
 *       d' hops from B whatever the circle's spacing), which ended t' before the new one; A pushes its
 *       sync just after it ended (1 clock tick later, App. B L887); the S6 client core's history,
 *       uploaded with the connect, says where it has been.</li>
 * </ul>
 * The connect request (with S6's history upload) reaches B at once, as every strategy's connect,
 * which App. B does not time. {@link #setupEnd} records when B's core started delivering.
 *
 * <p>In {@link Mode#FIRST_SYNC_ONLY} (the mean-value mode's integration, notes Z23) S5's servers
 * other than A sync once right after 0 and A sends only its first sync, at a given phase; the delay
 * of A's sync to B is forced ({@link #syncDelay}) so the caller can find, with the cores deciding,
 * the delay at which B's decision flips.
 */
final class GatherRig extends Rig {

    enum Mode {
        /** Every sync as the strategy sends it, delays from the circle. */
        FULL,
        /** The mean-value mode's simplifications of App. B for S5 (one sync from A, at {@link #phase}). */
        FIRST_SYNC_ONLY
    }

    private final int strategy;
    private final List<GatherServer> cores = new ArrayList<>();
    private final GatherClient clientCore;
    private final int notes;
    private final Mode mode;
    /** Index of the server of the previous connection (S5, S6), -1 for S4. */
    final int a;
    /** When the client connects to B, s. */
    final double t0;
    /** When B's core started delivering (end of the gather), or NaN if it never did. */
    double setupEnd = Double.NaN;
    /** The delay of A's sync to B, forced (s); NaN: drawn or expected like any other message. */
    private double syncDelay = Double.NaN;
    /** S5 mean-value: A's first sync is sent {@code phase} seconds after the previous connection ended. */
    private double phase;
    private final UniformRandomProvider rng;
    private long session;

    GatherRig(int strategy, Params p, Circle circle, int notes, Mode mode, UniformRandomProvider rng) {
        super(p, circle);
        this.strategy = strategy;
        this.notes = notes;
        this.mode = mode;
        this.rng = rng;
        if (strategy < 4 || strategy > 6) {
            throw new IllegalArgumentException("strategy " + strategy + " is not a gather strategy");
        }
        // T_r and T_u in clock ticks; skew and T_e 0 as in App. B. The core checks its rules (R3).
        StrategyConfig config = config(strategy).times(strategy == 5 ? ticks(p.Tr()) : 0,
                strategy == 5 ? ticks(p.Tu()) : 0, 0);
        for (int i = 0; i < p.N(); i++) {
            cores.add((GatherServer) config.server(servers.get(i), clock, GatherDurableState.initial()));
        }
        // Strategy 6's client is known never to have connected anywhere.
        clientCore = (GatherClient) config.client(clock, StrategyConfig.ClientMemory.fresh()
                .withHistory(ClientHistory.never()));
        a = switch (strategy) {
            case 5 -> p.N() / 2;
            case 6 -> p.N() > 1 ? 1 : -1;
            default -> -1;
        };
        t0 = switch (strategy) {
            case 5 -> p.Tr();
            case 6 -> p.tPrime();
            default -> 0;
        };
    }

    private static long ticks(double seconds) {
        return Math.round(seconds * TICKS);
    }

    GatherRig forceSyncDelay(double delay) {
        this.syncDelay = delay;
        return this;
    }

    GatherRig phase(double phase) {
        this.phase = phase;
        return this;
    }

    /** S6 places A d' hops from B; every other pair sits on the circle. */
    @Override
    protected double hops(int i, int j) {
        if (strategy == 6 && a > 0 && (i == 0 && j == a || i == a && j == 0)) {
            return p.dPrime();
        }
        return circle.serverHops(i, j);
    }

    @Override
    protected double forcedDelay(int from, EoMessage m) {
        if (from == a && m instanceof EoMessage.DSync y && index(y.to()) == 0) {
            return syncDelay;
        }
        return Double.NaN;
    }

    @Override
    protected void start() {
        for (int n = 0; n < notes; n++) {
            ServerStep step = cores.get(n % p.N()).createNote(NoteId.global(String.format("n%09d", n)), "note");
            // The replication round to its end at once (the specs' atomic CreateNote), as IdListRig.
            dev.onceproof.exactlyonce.Replication.atOnce(step, s -> cores.get(index(s)));
        }
        if (strategy == 5) {
            previousConnection();
            if (mode == Mode.FIRST_SYNC_ONLY) {
                // Only syncs to B can change B's decision: each server's sync to B alone (the same
                // message periodicSync sends B), the others' right after 0, A's at its phase.
                for (int i = 1; i < p.N(); i++) {
                    int s = i;
                    if (s != a) {
                        at(1 / TICKS, () -> effects(s, cores.get(s).sync(servers.get(0))));
                    }
                }
                if (phase < t0) {
                    at(Math.max(phase, 1 / TICKS), () -> effects(a, cores.get(a).sync(servers.get(0))));
                }
            } else {
                for (int i = 0; i < p.N(); i++) {
                    periodic(i, Math.max(1 / TICKS, rng.nextDouble() * p.Tu()));
                }
            }
        } else if (strategy == 6 && a > 0) {
            previousConnection();
            // A's session for that connection ended: A pushes its news just after (L246, L887).
            at(1 / TICKS, () -> effects(a, ((S6Server) cores.get(a)).pushSync()));
        }
        at(t0, this::connect);
    }

    /** The client's previous connection, at A, ending at time 0 (Figures B-2, B-3). */
    private void previousConnection() {
        ConnectStep c = clientCore.connectTo(servers.get(a));
        EoMessage.HistoryUpload upload = clientSteps(c.effects());
        if (strategy == 6) {
            effects(a, ((S6Server) cores.get(a)).startSession(upload));
        } else {
            effects(a, cores.get(a).startSession());
        }
        effects(a, cores.get(a).endSession());
        clientSteps(clientCore.endConnection());
    }

    /** Server i's periodic syncs (S5), every T_u from {@code first}, until the connection ends. */
    private void periodic(int i, double first) {
        for (double t = first; t <= t0 + p.Tc(); t += p.Tu()) {
            at(t, () -> effects(i, ((S5Server) cores.get(i)).periodicSync()));
        }
    }

    /** Carries out client effects outside a note: history records; returns S6's upload, if any. */
    private EoMessage.HistoryUpload clientSteps(List<ClientEffect> effects) {
        EoMessage.HistoryUpload upload = null;
        for (ClientEffect e : effects) {
            if (e instanceof ClientEffect.Send s && s.message() instanceof EoMessage.HistoryUpload u) {
                upload = u;
            } else if (e instanceof ClientEffect.Send s) {
                throw new IllegalStateException("unexpected " + s.message());
            } else {
                costs.clientWrites++;
            }
        }
        return upload;
    }

    private void connect() {
        ConnectStep c = clientCore.connectTo(servers.get(0));
        if (c.verdict() != ConnectVerdict.CONNECTED) {
            throw new IllegalStateException("S" + strategy + " client refused the connect at " + now + " s: "
                    + c.verdict());
        }
        EoMessage.HistoryUpload upload = clientSteps(c.effects());
        GatherServer b = cores.get(0);
        if (upload != null) {
            costs.count(upload);
        }
        effects(0, strategy == 6 ? ((S6Server) b).startSession(upload) : b.startSession());
        session = b.session();
        effects(0, b.reqAll());
        tryDeliver();
    }

    /** Ends the gather when the core allows it, then asks for the next aDeliver. */
    private void tryDeliver() {
        GatherServer b = cores.get(0);
        if (b.phase() == GatherServer.Phase.GATHER) {
            ServerStep end = b.endGather();
            effects(0, end);
            if (!end.outcome().equals("delivering")) {
                return;
            }
            setupEnd = now;
        }
        if (b.phase() == GatherServer.Phase.DELIVER && b.pending().isEmpty()) {
            ServerStep next = b.aDeliverNext();
            starved |= next.outcome().equals("idle");
            effects(0, next);
        }
    }

    @Override
    protected void aDeliverCall(int from, ServerEffect.ADeliver call) {
        send0(from, new EoMessage.NoteDelivery(servers.get(from), client, call.note()));
    }

    private void send0(int from, EoMessage m) {
        effects(from, new ServerStep("aDeliver", List.of(new ServerEffect.Send(m))));
    }

    @Override
    protected void arrive(int node, EoMessage m) {
        if (node == CLIENT) {
            clientEffects(clientCore.receiveNote((EoMessage.NoteDelivery) m));
            return;
        }
        GatherServer core = cores.get(node);
        if (m instanceof EoMessage.NoteAck ack) {
            effects(node, core.aDeliverOk(session, ack.id()));
            tryDeliver();
        } else if (m instanceof EoMessage.DRequest || m instanceof EoMessage.DReply || m instanceof EoMessage.DSync) {
            effects(node, core.receive(m));
            if (m instanceof EoMessage.DReply && node == 0) {
                tryDeliver();
            }
        } else {
            throw new IllegalStateException("unexpected " + m.getClass().getSimpleName() + " at server " + node);
        }
    }

    /** Servers B's core pulled from in this session. */
    SortedSet<Integer> pulled() {
        TreeSet<Integer> out = new TreeSet<>();
        for (var s : cores.get(0).stale()) {
            out.add(index(s));
        }
        return out;
    }

    /** S6: history entries the client keeps; S4/S5: none. */
    double clientSlots() {
        if (clientCore instanceof S6Client c) {
            ClientHistory h = c.history();
            return h.ended().size() + h.open().size();
        }
        return 0;
    }

    @Override
    double end() {
        return t0 + p.Tc();
    }
}
