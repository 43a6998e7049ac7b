package dev.onceproof.exactlyonce;

import java.util.List;
import java.util.Optional;

/**
 * A client core of one strategy: a sans-IO state machine over the client's stable state. It has no
 * volatile protocol state, so a crash is modelled by building a new core from what the store holds
 * (the spec's {@code ClientCrash}: stable state survives, the connection does not).
 */
public interface ClientCore {

    ClientId id();

    /** The spec's {@code ClientRecvNote(i)}: judge a delivered note; see {@link ClientStep}. */
    ClientStep receiveNote(EoMessage.NoteDelivery message);

    /** The current stable state (what the last {@link ClientEffect.Record} of a step holds). */
    ClientStableState stable();

    /** The spec's {@code Connect(s)}: the client's connection is now to server s. */
    void connect(ServerId s);

    /** The spec's {@code Disconnect(s)}. */
    void disconnect();

    /** The spec's {@code ClientCrash}: the connection is lost; the stable state survives. */
    void crash();

    /** The spec's {@code conn}: the server connected to, empty for {@code "none"}. */
    java.util.Optional<ServerId> conn();

    /** Checks the message is for this client and its id is acceptable, before any state change. */
    static void checkAddressed(ClientId self, Limits limits, EoMessage.NoteDelivery m) {
        if (!m.to().equals(self)) {
            throw new InvalidMessageException("to", "note " + m.note().id() + " is for client " + m.to()
                    + ", this is client " + self);
        }
        limits.check("note.id", m.note().id());
    }

    /** Accept: one durable write of the new state and the processing, then the acknowledgement. */
    static ClientStep accept(ClientOrdering ordering, ClientStableState next, EoMessage.NoteDelivery m,
            ClientId self) {
        ClientEffect record = new ClientEffect.Record(next, Optional.of(m.note()));
        ClientEffect ack = new ClientEffect.Send(new EoMessage.NoteAck(self, m.from(), m.note().id()));
        return new ClientStep(Verdict.ACCEPTED, ordering == ClientOrdering.RECORD_THEN_ACK
                ? List.of(record, ack) : List.of(ack, record));
    }

    /** Not processed, but received: acknowledge so the server stops resending. */
    static ClientStep duplicate(Verdict verdict, EoMessage.NoteDelivery m, ClientId self) {
        return new ClientStep(verdict,
                List.of(new ClientEffect.Send(new EoMessage.NoteAck(self, m.from(), m.note().id()))));
    }
}
