package dev.onceproof.conformance.replay.exactlyonce;

import dev.onceproof.conformance.replay.FamilyReplayer;
import dev.onceproof.conformance.replay.Mismatch;
import dev.onceproof.conformance.trace.TraceHeader;
import dev.onceproof.conformance.trace.TraceStep;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Replays the traces of the message-level Strategy 2 specs (issue 20 items 1 and 3) on
 * S2Server/StreamServer and S2Client: ExactlyOnceS2Msg (the sync as request and reply messages,
 * atomic replication) and ExactlyOnceS2MsgAsync (replicas as messages, the settle rule). Every
 * step is the core call its action names, with the message the trace says is delivered taken
 * from the replayer's networks (which hold only what the cores sent); after every step the cores'
 * K, removed, round, issued, seen, entered, conf, session and the client's R, the messages in
 * flight and (Async) the settled numbers are compared with the trace's variables, and every
 * store is reopened and compared with its core ({@link S2MsgCores}). The replayer decides
 * nothing of the protocol: the cores do, and the comparison says whether they did what the spec did.
 */
public final class S2MsgReplayer implements FamilyReplayer {

    static final String MSG = "ExactlyOnceS2Msg";
    static final String ASYNC = "ExactlyOnceS2MsgAsync";

    private static final Set<String> MSG_ACTIONS = Set.of("Init", "CreateNote", "Connect", "Disconnect",
            "StartSession", "SendNote", "ReceiveNote", "ReceiveAck", "Timeout", "StartSync", "HandleSync",
            "ReceiveSyncReply", "ClientCrash", "ServerCrash", "Lose", "LoseSync");

    private final String spec;
    private final S2MsgCores.Factory factory;

    /** The replayer of ExactlyOnceS2Msg or ExactlyOnceS2MsgAsync on the real cores. */
    public S2MsgReplayer(String spec) {
        this(spec, S2MsgCores.Factory.REAL);
    }

    /** The same with the server cores built by {@code factory} (tests pass a broken one). */
    public S2MsgReplayer(String spec, S2MsgCores.Factory factory) {
        if (!spec.equals(MSG) && !spec.equals(ASYNC)) {
            throw new IllegalArgumentException("S2MsgReplayer replays " + MSG + " and " + ASYNC + ", not " + spec);
        }
        this.spec = spec;
        this.factory = factory;
    }

    @Override
    public String spec() {
        return spec;
    }

    @Override
    public Set<String> actions() {
        Set<String> a = new TreeSet<>(MSG_ACTIONS);
        if (spec.equals(ASYNC)) {
            a.addAll(Set.of("ReceiveReplica", "LoseReplica", "SettleNumber"));
        }
        return a;
    }

    @Override
    public Session start(TraceHeader header) {
        S2MsgCores cores = new S2MsgCores(spec.equals(ASYNC), header.constants(), factory);
        return step -> apply(cores, step);
    }

    private static List<Mismatch> apply(S2MsgCores cores, TraceStep step) {
        List<Mismatch> out = new ArrayList<>(cores.step(step.action(), step.params()));
        out.addAll(Mismatch.compareAll(cores.expected(step.state()), cores.abstractState()));
        out.addAll(cores.gate(step.state()));
        out.addAll(cores.storeMismatches());
        return out;
    }
}
