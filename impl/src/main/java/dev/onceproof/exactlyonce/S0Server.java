package dev.onceproof.exactlyonce;

import java.util.Optional;

/**
 * Strategy 0's server (notes Z16: Strategy 1's server over globally unique ids; what matters is
 * the client, which processes everything). Notes are created with the caller's id, as in
 * Strategy 3; the session offers any note of K.
 */
public final class S0Server extends StreamServer {

    public S0Server(ServerConfig config, EoClock clock, ServerDurableState durable) {
        super(config, clock, Limits.global(), durable);
    }

    public static S0Server fresh(ServerConfig config, EoClock clock) {
        return new S0Server(config, clock, ServerDurableState.initial());
    }

    /** Strategy 0 does not number notes: {@link #createNote(NoteId, String)} names them. */
    @Override
    protected Optional<Long> nextSeq() {
        return Optional.empty();
    }

    @Override
    public Strategy strategy() {
        return Strategy.S0;
    }

    /** Strategy 0's notes are named by the caller. */
    @Override
    public ServerStep createNote(Optional<NoteId> id, String body) {
        return createNote(EoServer.named(strategy(), id), body);
    }

    /** The spec's {@code CreateNote(i)}: i into K here and, by replicas, everywhere. */
    public ServerStep createNote(NoteId id, String body) {
        limits.check("id", id);
        if (k.containsKey(id) || knownRemoved(id)) {
            throw new IllegalArgumentException("note " + id + " already exists on " + config.self());
        }
        Note note = new Note(id, config.client(), body);
        enter(note);
        return ServerCore.created("created", config, note, record());
    }

    @Override
    protected boolean mayOffer(NoteId i) {
        return true;
    }

    @Override
    protected Optional<NoteId> nextToSend() {
        return k.isEmpty() ? Optional.empty() : Optional.of(k.firstKey());
    }
}
