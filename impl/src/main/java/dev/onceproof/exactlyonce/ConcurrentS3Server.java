package dev.onceproof.exactlyonce;

import dev.onceproof.exactlyonce.store.ServerStore;
import java.util.SortedSet;

/**
 * The Strategy 3 server state one server keeps for one client, shared by the client's session
 * thread (HandleClient) and the threads that run synchronization rounds and their handler
 * (ServerSynch, App. A.4): the one concurrent wrapper {@link ConcurrentServer} over the sequential
 * {@link S3Server} and its {@link ServerStore}. Its hand-off: the session's Deliver and "Please
 * purge" go to the {@link ClientChannel} inside the critical section that chose them, after a
 * commit there ({@link ConcurrentServer#handingOver}).
 *
 * <p>That is the fix of race R3 (notes Z5): choosing a note ({@code i in K - D}) and handing it to
 * the client are one critical section, and so are authorizing a purge and handing over "Please
 * purge i". A purge can therefore never slip between the check and the send, and the client sees
 * notes and purge requests in the order the server decided them (FIFO channel). The printed
 * pseudo-code's race is reachable through the core's {@link S3Variant#PRINTED} seam, and this
 * safeguard can be moved "one line later" through the {@link Handoff} seam.
 */
public final class ConcurrentS3Server extends ConcurrentServer<S3Server, ServerDurableState> {

    private final ServerStore store;
    /** The session's channel for the step interface's {@link #deliverNext} and {@link #authorize}, or null. */
    private final ClientChannel session;

    public ConcurrentS3Server(S3Server core, ServerStore store) {
        this(core, store, Handoff.UNDER_LOCK);
    }

    /** With the hand-over seam; see {@link Handoff} (the racy one is a test control only). */
    public ConcurrentS3Server(S3Server core, ServerStore store, Handoff handoff) {
        this(core, store, handoff, null);
    }

    /**
     * With the channel to the client that the step interface's {@link #deliverNext} and
     * {@link #authorize} hand their messages to (null: those two refuse; use the methods that take
     * a channel).
     */
    public ConcurrentS3Server(S3Server core, ServerStore store, Handoff handoff, ClientChannel session) {
        super(core, store, handoff, Deferral.WAIT);
        this.store = store;
        this.session = session;
    }

    // ---- the hand-off ------------------------------------------------------------------------

    /** {@link #sendNote(ClientChannel)} on the session's channel. */
    @Override
    public ServerStep deliverNext() {
        return sendNote(session("deliverNext"));
    }

    /** {@link #authorize(ClientChannel)} on the session's channel. */
    @Override
    public ServerStep authorize() {
        return authorize(session("authorize"));
    }

    private ClientChannel session(String step) {
        if (session == null) {
            throw new IllegalStateException(step + " of the step interface needs the session's channel: build this "
                    + "server with one, or call " + step + "(ClientChannel)");
        }
        return session;
    }

    /** HandleClient's next Deliver: choose a note and hand it to the client in one critical section. */
    public ServerStep sendNote(ClientChannel client) {
        return handingOver(core::sendNote, client);
    }

    /** Authorize the first purgeable note and hand "Please purge i" to the client, atomically. */
    public ServerStep authorize(ClientChannel client) {
        return handingOver(core::authorize, client);
    }

    // ---- the spec-named steps ----------------------------------------------------------------

    public ServerStep receiveAck(EoMessage.NoteAck ack) {
        return locked(() -> core.receiveAck(ack));
    }

    /** ServerSynch's requests; the caller sends them to the peers (the record is already durable). */
    public ServerStep startSync() {
        return locked(core::startSync);
    }

    public ServerStep handleSync(EoMessage.SyncRequest request) {
        return locked(() -> core.handleSync(request));
    }

    public ServerStep receiveSyncReply(EoMessage.SyncReply reply) {
        return locked(() -> core.receiveSyncReply(reply));
    }

    public ServerStep receivePurgeAck(EoMessage.PurgeAck ack) {
        return locked(() -> core.receivePurgeAck(ack));
    }

    public SortedSet<NoteId> u() {
        return observe(core::u);
    }

    // ---- the journal -------------------------------------------------------------------------

    @Override
    protected ServerDurableState state() {
        return core.durable();
    }

    /** The step's record; a step without one (it changed nothing durable) appends nothing. */
    @Override
    protected long append(ServerStep step) {
        for (ServerEffect effect : step.effects()) {
            if (effect instanceof ServerEffect.Record r) {
                return store.append(r);
            }
        }
        return store.lastSeq();
    }
}
