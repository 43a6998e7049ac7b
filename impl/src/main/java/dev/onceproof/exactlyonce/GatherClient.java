package dev.onceproof.exactlyonce;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The client of the server-centric Strategies 4-6 (3.3.2). It keeps no note state: it cannot tell
 * a duplicate, so it processes every note the atomic delivery hands it (3.3.1; footnote 1, L189:
 * exactly-once is still wanted, the servers guarantee it). What differs per strategy is the
 * connection: Strategy 5 refuses to connect within T_r of the last connection's end, Strategy 6
 * keeps its connect history H durable. Connect with {@link #connectTo} and end with
 * {@link #endConnection}, carrying out their effects in order ({@link ConnectStep}).
 */
public abstract class GatherClient implements ClientCore {

    protected final ClientId self;
    private final Limits limits = Limits.global();
    private ServerId conn;

    protected GatherClient(ClientId self) {
        this.self = Objects.requireNonNull(self, "self");
    }

    @Override
    public final ClientId id() {
        return self;
    }

    /**
     * A note handed over by {@code aDeliver}: processed (the Record, holding the note for the
     * application) and acknowledged (the primitive's own acknowledgement). A note for another
     * client or with a sequenced id is refused, naming the field.
     */
    @Override
    public ClientStep receiveNote(EoMessage.NoteDelivery m) {
        ClientCore.checkAddressed(self, limits, m);
        return new ClientStep(Verdict.ACCEPTED, List.of(new ClientEffect.Record(stable(), Optional.of(m.note())),
                new ClientEffect.Send(new EoMessage.NoteAck(self, m.from(), m.note().id()))));
    }

    /** No note state to keep. */
    @Override
    public ClientStableState.Stateless stable() {
        return new ClientStableState.Stateless();
    }

    /**
     * The spec's {@code Connect(s)}: refused with a verdict when the strategy forbids it now
     * (Strategy 5's T_r); otherwise the connection is to s.
     *
     * @throws IllegalStateException already connected (disconnect first; one server at a time)
     */
    public final ConnectStep connectTo(ServerId s) {
        Objects.requireNonNull(s, "server");
        if (conn != null) {
            throw new IllegalStateException("client " + self + " is connected to " + conn + "; disconnect before "
                    + "connecting to " + s);
        }
        ConnectStep step = attempt(s);
        if (step.verdict() == ConnectVerdict.CONNECTED) {
            conn = s;
        }
        return step;
    }

    protected abstract ConnectStep attempt(ServerId s);

    /** {@link #connectTo} for callers that keep nothing durable (tests); a refusal throws. */
    @Override
    public final void connect(ServerId s) {
        ConnectStep step = connectTo(s);
        if (step.verdict() != ConnectVerdict.CONNECTED) {
            throw new IllegalStateException("connect to " + s + " refused: " + step.verdict().specName()
                    + ", not before client time " + step.earliest().orElse(-1));
        }
    }

    /** The spec's {@code Disconnect}: the connection ends cleanly; carry out the effects in order. */
    public final List<ClientEffect> endConnection() {
        if (conn == null) {
            return List.of();
        }
        ServerId s = conn;
        conn = null;
        return ended(s);
    }

    /** What the end of a connection to s records (Strategy 5: the time; Strategy 6: H[s]). */
    protected abstract List<ClientEffect> ended(ServerId s);

    @Override
    public final void disconnect() {
        endConnection();
    }

    /** The spec's {@code ClientCrash}: the connection is lost without an end being recorded. */
    @Override
    public void crash() {
        conn = null;
    }

    @Override
    public final Optional<ServerId> conn() {
        return Optional.ofNullable(conn);
    }
}
