package dev.onceproof.conformance.replay.exactlyonce;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.onceproof.conformance.replay.FamilyReplayer;
import dev.onceproof.conformance.replay.Mismatch;
import dev.onceproof.conformance.trace.TraceHeader;
import dev.onceproof.conformance.trace.TraceStep;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Replays the exactly-once traces (specs/exactlyonce, spec ExactlyOnceS0 ... ExactlyOnceS3Printed)
 * on the sans-IO cores, following the "Exactly-once" section of specs/CONVENTIONS.md: every step
 * is the core call its action names (environment steps: the client's connect/disconnect/crash, a
 * server rebuilt from its store for ServerCrash, nothing for Lose), and after every step the whole
 * abstract state (K, D, known, sess, ctr, conf, U, R, conn) is compared field by field.
 *
 * <p>Time: S0-S3 have no clock (the T_e waits are "no copy in net"); before every step the
 * replayer moves the cores' clock past T_e, so a wait the spec's guard allowed is over.
 * ExactlyOnceS0MsgTimed, ExactlyOnceS2Timed and ExactlyOnceS3Timed have one: the cores run with
 * its Te, the clock moves on Tick only, and after every step each server's T_e gate (forget,
 * Condition 1, purge) is compared with the spec's ({@code Cores.gate}).
 */
public final class ExactlyOnceReplayer implements FamilyReplayer {

    static final JsonNodeFactory F = JsonNodeFactory.instance;

    private static final Set<String> COMMON = Set.of("Init", "CreateNote", "Connect", "Disconnect", "StartSession",
            "SendNote", "ReceiveNote", "ReceiveAck", "Timeout", "Sync", "ClientCrash", "ServerCrash", "Lose");
    private static final Set<String> S3 = Set.of("Init", "CreateNote", "Connect", "Disconnect", "StartSession",
            "SendNote", "ReceiveNote", "ReceiveAck", "Timeout", "Sync", "Authorize", "ReceivePurge",
            "ReceivePurgeAck", "ClientCrash", "ServerCrash", "Lose");

    /** Strategies 4-6 (module ExactlyOnceGather): the vocabulary of issue 10. */
    private static final Set<String> GATHER = Set.of("Init", "CreateNote", "Connect", "Disconnect", "StartSession",
            "ReqD", "ReplyD", "RecvD", "GatherFail", "EndGather", "ADeliverOK", "ADeliverErr", "PurgeSync",
            "ClientCrash", "ServerCrash", "Lose");

    private final String spec;
    private final Cores.Factory factory;
    private final GatherCores.Factory gatherFactory;

    /** The replayer of one of the five specs, on the real cores. */
    public ExactlyOnceReplayer(String spec) {
        this(spec, Cores.Factory.REAL);
    }

    /** The same with the cores built by {@code factory} (tests pass a broken one). */
    public ExactlyOnceReplayer(String spec, Cores.Factory factory) {
        this(spec, factory, GatherCores.Factory.REAL);
    }

    /** A replayer of Strategy 4-6 traces whose cores {@code gatherFactory} builds (tests pass a broken one). */
    static ExactlyOnceReplayer gather(String spec, GatherCores.Factory gatherFactory) {
        return new ExactlyOnceReplayer(spec, Cores.Factory.REAL, gatherFactory);
    }

    private ExactlyOnceReplayer(String spec, Cores.Factory factory, GatherCores.Factory gatherFactory) {
        if (!List.of("ExactlyOnceS0", "ExactlyOnceS0Msg", "ExactlyOnceS0MsgTimed", "ExactlyOnceS1", "ExactlyOnceS1Msg", "ExactlyOnceS2", "ExactlyOnceS2Timed", "ExactlyOnceS3", "ExactlyOnceS3Printed",
                "ExactlyOnceS3Timed")
                .contains(spec) && !GatherCores.GATHER_SPECS.contains(spec)) {
            throw new IllegalArgumentException("no exactly-once spec named " + spec);
        }
        this.spec = spec;
        this.factory = factory;
        this.gatherFactory = gatherFactory;
    }

    @Override
    public String spec() {
        return spec;
    }

    @Override
    public Set<String> actions() {
        if (GatherCores.GATHER_SPECS.contains(spec)) {
            Set<String> a = new java.util.TreeSet<>(GATHER);
            String base = GatherCores.base(spec);
            if (!base.startsWith("ExactlyOnceS4")) {
                a.addAll(Set.of("Tick", "RecvSync", base.equals("ExactlyOnceS5") ? "PeriodicSync" : "PushSync"));
            }
            if (base.equals("ExactlyOnceS6")) {
                a.add("ClientLoseH");
            }
            if (!base.equals(spec)) {
                a.addAll(Set.of("ADeliverCall", "DeferReplyD", "DeferEndGather", "DeferPurgeSync"));
                if (!base.startsWith("ExactlyOnceS4")) {
                    a.add("DeferSync");
                }
            }
            if (spec.equals("ExactlyOnceS4Deliver")) {
                a.removeAll(Set.of("ADeliverOK", "ADeliverErr", "Tick", "RecvSync", "PeriodicSync"));
                a.addAll(Set.of("SendNote", "ReceiveNote", "ReceiveAck", "Timeout"));
            }
            return a;
        }
        if (spec.equals("ExactlyOnceS3Timed")) {
            Set<String> a = new java.util.TreeSet<>(S3);
            a.add("Tick");
            return a;
        }
        if (spec.equals("ExactlyOnceS2Timed")) {
            Set<String> a = new java.util.TreeSet<>(COMMON);
            a.add("Tick");
            return a;
        }
        if (spec.equals("ExactlyOnceS1Msg") || spec.startsWith("ExactlyOnceS0Msg")) {
            Set<String> a = new java.util.TreeSet<>(COMMON);
            a.remove("Sync");
            a.addAll(Set.of("StartSync", "HandleSync", "ReceiveSyncReply", "LoseSync"));
            if (spec.startsWith("ExactlyOnceS0Msg")) {
                a.addAll(Set.of("ReceiveReplica", "Forget"));
            }
            if (spec.equals("ExactlyOnceS0MsgTimed")) {
                a.add("Tick");
            }
            return a;
        }
        return spec.startsWith("ExactlyOnceS3") ? S3 : COMMON;
    }

    @Override
    public Session start(TraceHeader header) {
        if (GatherCores.GATHER_SPECS.contains(spec)) {
            return new GatherReplay(new GatherCores(spec, header.constants(), gatherFactory));
        }
        return new Replay(new Cores(spec, header.constants(), factory));
    }

    /** Strategies 4-6: the same, with {@code delivered} compared as the sequence it is. */
    private static final class GatherReplay implements Session {
        private final GatherCores cores;

        GatherReplay(GatherCores cores) {
            this.cores = cores;
        }

        @Override
        public List<Mismatch> apply(TraceStep step) {
            List<Mismatch> out = new ArrayList<>(cores.step(step.action(), step.params()));
            Map<String, JsonNode> expected = expected(step.state(), cores.fields());
            expected.put("delivered", step.state().get("delivered"));
            if (expected.containsKey("att")) {
                expected.put("att", GatherCores.attNotes(step.state().get("att")));
            }
            out.addAll(Mismatch.compareAll(expected, cores.abstractState()));
            return out;
        }
    }

    private static final class Replay implements Session {
        private final Cores cores;

        Replay(Cores cores) {
            this.cores = cores;
        }

        @Override
        public List<Mismatch> apply(TraceStep step) {
            List<Mismatch> out = new ArrayList<>(cores.step(step.action(), step.params()));
            out.addAll(Mismatch.compareAll(expected(step.state(), cores.fields()), cores.abstractState()));
            out.addAll(cores.gate(step.state()));
            out.addAll(cores.storeMismatches());
            return out;
        }
    }

    /**
     * The trace's variables the cores must match, sets sorted and the ghosts (S2's {@code inc},
     * S0Msg's {@code gone} in a sync message) dropped.
     * S3Printed's {@code U[s]} counts only while s's session is active: App. A.4 takes it at the
     * session's start and only the session reads it; the spec leaves it in place when the session
     * ends (a server crash included), the core drops it with the rest of the volatile state.
     */
    static Map<String, JsonNode> expected(ObjectNode state, Set<String> fields) {
        Map<String, JsonNode> m = new TreeMap<>();
        for (String f : fields) {
            JsonNode v = state.get(f);
            m.put(f, v == null ? null : normalize(v));
        }
        if (m.get("U") instanceof ObjectNode u && state.get("sess") != null) {
            m.put("U", activeOnly(u, state.get("sess")));
        }
        return m;
    }

    /** {@code u} with the entries of servers whose session is not active emptied. */
    static ObjectNode activeOnly(ObjectNode u, JsonNode sess) {
        ObjectNode out = F.objectNode();
        u.fields().forEachRemaining(e -> {
            JsonNode session = sess.get(e.getKey());
            boolean active = session != null && session.path("active").asBoolean(false);
            out.set(e.getKey(), active ? e.getValue() : F.arrayNode());
        });
        return out;
    }

    /** Sorts every array (the compared fields hold sets and sequences of at most one element). */
    static JsonNode normalize(JsonNode v) {
        if (v.isObject()) {
            ObjectNode o = F.objectNode();
            TreeMap<String, JsonNode> sorted = new TreeMap<>();
            // S2's ghost inc; S0Msg's ghost gone of a sync message (it carries removed)
            boolean s0MsgSync = v.has("removed") && v.has("gone") && v.has("type");
            v.fields().forEachRemaining(e -> {
                if (!e.getKey().equals("inc") && !(s0MsgSync && e.getKey().equals("gone"))) {
                    sorted.put(e.getKey(), normalize(e.getValue()));
                }
            });
            sorted.forEach(o::set);
            return o;
        }
        if (v.isArray()) {
            List<JsonNode> items = new ArrayList<>();
            v.forEach(x -> items.add(normalize(x)));
            items.sort((a, b) -> a.toString().compareTo(b.toString()));
            ArrayNode a = F.arrayNode();
            items.forEach(a::add);
            return a;
        }
        return v;
    }
}
