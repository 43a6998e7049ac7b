package dev.onceproof.conformance.lincheck.exactlyonce;

import dev.onceproof.exactlyonce.ClientEffect;
import dev.onceproof.exactlyonce.ClientId;
import dev.onceproof.exactlyonce.ClientStep;
import dev.onceproof.exactlyonce.ConcurrentS3Server;
import dev.onceproof.exactlyonce.EoMessage;
import dev.onceproof.exactlyonce.ManualEoClock;
import dev.onceproof.exactlyonce.NoteId;
import dev.onceproof.exactlyonce.S3Client;
import dev.onceproof.exactlyonce.S3Server;
import dev.onceproof.exactlyonce.S3Variant;
import dev.onceproof.exactlyonce.ServerConfig;
import dev.onceproof.exactlyonce.ServerDurableState;
import dev.onceproof.exactlyonce.ServerEffect;
import dev.onceproof.exactlyonce.ServerId;
import dev.onceproof.exactlyonce.ServerStep;
import dev.onceproof.exactlyonce.Verdict;
import dev.onceproof.exactlyonce.store.ServerStore;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.jetbrains.kotlinx.lincheck.annotations.Operation;
import org.jetbrains.kotlinx.lincheck.annotations.Param;
import org.jetbrains.kotlinx.lincheck.annotations.Validate;
import org.jetbrains.kotlinx.lincheck.paramgen.IntGen;

/**
 * The world of the Strategy 3 Lincheck tests: server B's state ({@link ConcurrentS3Server}, the
 * class under test) shared by its client session (HandleClient: {@code startSession},
 * {@code deliverNext}, one thread at a time) and its synchronization side (ServerSynch with peer A
 * and purge authorization: {@code syncFromB}, {@code syncFromA}, {@code purge}, {@code peerDelivers}). Notes x and y exist
 * on both servers (atomic replication, notes Z1); the client holds up to 3 ids; T_e is 0 because
 * delivery here is synchronous, so no copy lingers. Operation names and results match
 * {@link SequentialS3}, the sequential core.
 *
 * <p>Every interleaving is also checked for the spec's NoDuplicateDelivery: no note processed by
 * the client twice.
 */
@Param(name = "note", gen = IntGen.class, conf = "1:2")
public abstract class S3LincheckBase {

    static final String NOTES = "xy";

    private final ManualEoClock clock = new ManualEoClock(0);
    private final ClientId c = ClientId.of("c");
    private final ServerId a = ServerId.of("A");
    private final ServerId b = ServerId.of("B");
    private final S3Server peer;
    /** Server B as the class under test, or null in the sequential specification. */
    private final ConcurrentS3Server server;
    /** Server B's sequential core (used directly only by the sequential specification). */
    private final S3Server core;
    private final S3Client client = S3Client.fresh(c, 3);
    private final List<String> processed = new ArrayList<>();

    /**
     * @param variant the core's HandleClient (the printed one is the racy control)
     * @param sequential true for the sequential specification: B is the bare {@link S3Server}
     */
    protected S3LincheckBase(S3Variant variant, boolean sequential) {
        this(variant, sequential, ConcurrentS3Server.Handoff.UNDER_LOCK);
    }

    /**
     * @param handoff where the class under test hands a chosen note to the client (the
     *     {@link ConcurrentS3Server.Handoff#AFTER_UNLOCK} one is the racy control)
     */
    protected S3LincheckBase(S3Variant variant, boolean sequential, ConcurrentS3Server.Handoff handoff) {
        TreeSet<ServerId> servers = new TreeSet<>(List.of(a, b));
        peer = S3Server.fresh(new ServerConfig(a, c, servers, 0), clock);
        core = new S3Server(new ServerConfig(b, c, servers, 0), clock, variant, ServerDurableState.initial());
        ServerStore store = new ServerStore(new SequenceOnlyLog());
        for (char n : NOTES.toCharArray()) {
            // The replication round at once (A's replica stored at B, B's ack, A's commit), as the
            // specs' atomic CreateNote: the note is deliverable at B from here on. B's records go to
            // its store, as the runtime's would.
            ServerStep created = peer.createNote(NoteId.global(String.valueOf(n)), "");
            ServerStep stored = core.receiveReplica(replica(created));
            save(store, stored);
            ServerStep committed = peer.receiveReplicaAck(sent(stored, EoMessage.ReplicaAck.class));
            save(store, core.receiveReplicaCommit(sent(committed, EoMessage.ReplicaCommit.class)));
        }
        server = sequential ? null : new ConcurrentS3Server(core, store, handoff);
    }

    private void save(ServerStore store, ServerStep step) {
        for (var e : step.effects()) {
            if (e instanceof dev.onceproof.exactlyonce.ServerEffect.Record r) {
                store.save(r, core::durable);
            }
        }
    }

    // Server B's steps: through the class under test, or straight on the core (sequential spec).

    private ServerStep bStartSession() {
        return server != null ? server.startSession() : core.startSession();
    }

    private ServerStep bSendNote(ConcurrentS3Server.ClientChannel channel) {
        return server != null ? server.sendNote(channel) : toClient(core.sendNote(), channel);
    }

    private ServerStep bAuthorize(ConcurrentS3Server.ClientChannel channel) {
        return server != null ? server.authorize(channel) : toClient(core.authorize(), channel);
    }

    private void bReceiveAck(EoMessage.NoteAck ack) {
        if (server != null) {
            server.receiveAck(ack);
        } else {
            core.receiveAck(ack);
        }
    }

    private void bReceivePurgeAck(EoMessage.PurgeAck ack) {
        if (server != null) {
            server.receivePurgeAck(ack);
        } else {
            core.receivePurgeAck(ack);
        }
    }

    private ServerStep bStartSync() {
        return server != null ? server.startSync() : core.startSync();
    }

    private ServerStep bHandleSync(EoMessage.SyncRequest m) {
        return server != null ? server.handleSync(m) : core.handleSync(m);
    }

    private void bReceiveSyncReply(EoMessage.SyncReply m) {
        if (server != null) {
            server.receiveSyncReply(m);
        } else {
            core.receiveSyncReply(m);
        }
    }

    private static ServerStep toClient(ServerStep step, ConcurrentS3Server.ClientChannel channel) {
        for (ServerEffect e : step.effects()) {
            if (e instanceof ServerEffect.Send s) {
                channel.send(s.message());
            }
        }
        return step;
    }

    static <T extends EoMessage> T sent(ServerStep step, Class<T> type) {
        for (ServerEffect e : step.effects()) {
            if (e instanceof ServerEffect.Send s && type.isInstance(s.message())) {
                return type.cast(s.message());
            }
        }
        throw new IllegalStateException("no " + type.getSimpleName() + " in " + step);
    }

    static EoMessage.Replica replica(ServerStep step) {
        return step.effects().stream().filter(e -> e instanceof ServerEffect.Send)
                .map(e -> (EoMessage.Replica) ((ServerEffect.Send) e).message()).findFirst().orElseThrow();
    }

    @Operation(nonParallelGroup = "session")
    public String startSession() {
        return bStartSession().outcome();
    }

    /** HandleClient's next Deliver: B hands a note to the client; the client's ack returns to B. */
    @Operation(nonParallelGroup = "session")
    public String deliverNext() {
        List<ClientStep> steps = new ArrayList<>();
        ServerStep sent = bSendNote(m -> steps.add(clientReceives(m)));
        if (steps.isEmpty()) {
            return sent.outcome();
        }
        ClientStep got = steps.get(0);
        for (ClientEffect e : got.effects()) {
            if (e instanceof ClientEffect.Send s) {
                bReceiveAck((EoMessage.NoteAck) s.message());
            }
        }
        return ((EoMessage.NoteDelivery) ((ServerEffect.Send) sent.effects().get(0)).message()).note().id() + ":"
                + got.verdict().specName();
    }

    /**
     * B's ServerSynch with A: B sends K and D, A merges and replies, B merges. The spec's atomic
     * {@code Sync(B, A)} is this and {@link #syncFromA} together; they are separate operations
     * because on a network they are separate exchanges.
     */
    @Operation(nonParallelGroup = "synch")
    public void syncFromB() {
        for (ServerEffect e : bStartSync().effects()) {
            if (e instanceof ServerEffect.Send s) {
                bReceiveSyncReply(reply(peer.handleSync((EoMessage.SyncRequest) s.message())));
            }
        }
    }

    /** A's ServerSynch with B: B handles A's request and replies. */
    @Operation(nonParallelGroup = "synch")
    public void syncFromA() {
        for (ServerEffect e : peer.startSync().effects()) {
            if (e instanceof ServerEffect.Send s) {
                peer.receiveSyncReply(reply(bHandleSync((EoMessage.SyncRequest) s.message())));
            }
        }
    }

    /** B authorizes every purgeable note; the client drops each from R and B from K and D. */
    @Operation(nonParallelGroup = "synch")
    public String purge() {
        StringBuilder purged = new StringBuilder();
        while (true) {
            List<ClientStep> steps = new ArrayList<>();
            bAuthorize(m -> steps.add(client.receivePurge((EoMessage.PurgeRequest) m)));
            if (steps.isEmpty()) {
                return purged.toString();
            }
            for (ClientEffect e : steps.get(0).effects()) {
                if (e instanceof ClientEffect.Send s) {
                    EoMessage.PurgeAck ack = (EoMessage.PurgeAck) s.message();
                    purged.append(ack.id());
                    bReceivePurgeAck(ack);
                }
            }
        }
    }

    /** A delivers note {@code note} (x or y) to the client in a session of its own (Example 3). */
    @Operation(nonParallelGroup = "synch")
    public String peerDelivers(@Param(name = "note") int note) {
        NoteId id = NoteId.global(String.valueOf(NOTES.charAt(note - 1)));
        peer.startSession();
        ServerStep sent = peer.sendNote(id);
        String outcome = sent.outcome();
        if (outcome.equals("sent")) {
            ClientStep got = clientReceives(((ServerEffect.Send) sent.effects().get(0)).message());
            for (ClientEffect e : got.effects()) {
                if (e instanceof ClientEffect.Send s) {
                    peer.receiveAck((EoMessage.NoteAck) s.message());
                }
            }
            outcome = got.verdict().specName();
        }
        peer.endSession();
        return outcome;
    }

    /** The client, reached through a server's channel; it records what it processes. */
    private ClientStep clientReceives(EoMessage m) {
        synchronized (client) {
            ClientStep step = client.receiveNote((EoMessage.NoteDelivery) m);
            if (step.verdict() == Verdict.ACCEPTED) {
                processed.add(((EoMessage.NoteDelivery) m).note().id().text());
            }
            return step;
        }
    }

    static EoMessage.SyncReply reply(ServerStep step) {
        return step.effects().stream().filter(e -> e instanceof ServerEffect.Send)
                .map(e -> (EoMessage.SyncReply) ((ServerEffect.Send) e).message()).findFirst().orElseThrow();
    }

    /** The spec's NoDuplicateDelivery on every explored interleaving. */
    @Validate
    public void noNoteProcessedTwice() {
        // A plain double loop: no new classes for Lincheck to instrument inside the validation.
        synchronized (client) {
            for (int j = 0; j < processed.size(); j++) {
                for (int k = j + 1; k < processed.size(); k++) {
                    if (processed.get(j).equals(processed.get(k))) {
                        throw new IllegalStateException("note " + processed.get(j)
                                + " processed twice (NoDuplicateDelivery): " + processed);
                    }
                }
            }
        }
    }
}
