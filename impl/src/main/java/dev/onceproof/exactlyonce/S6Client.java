package dev.onceproof.exactlyonce;

import java.util.List;
import java.util.Objects;

/**
 * Strategy 6, Connect History (L242-254): the client keeps H, for each server the time its last
 * connection there ended, and uploads it first thing at every connect (App. A.8). Per notes Z17
 * the history is written durably twice per connection: {@code H[s] := OPEN} at connect, before
 * the upload and so before any note of the connection is processed, and the end time at a clean
 * disconnect. A crash mid-connection leaves OPEN ("must pull from s"), never a stale end time
 * (mutant M6-b). A lost or corrupt history is UNKNOWN ({@link ClientHistory#unknown()}), which makes
 * servers pull from everyone (L254) until the client has connected to every server again.
 */
public final class S6Client extends GatherClient implements HistoryClient {

    private final EoClock clock;
    private ClientHistory history;

    public S6Client(ClientId self, EoClock clock, ClientHistory stored) {
        super(self);
        this.clock = Objects.requireNonNull(clock, "clock");
        this.history = Objects.requireNonNull(stored, "stored history");
    }

    /** A new device: history UNKNOWN, never an empty map (Z17). */
    public static S6Client fresh(ClientId self, EoClock clock) {
        return new S6Client(self, clock, ClientHistory.unknown());
    }

    /** Connect: H[s] := OPEN durably, then the upload ({@code UploadH}). */
    @Override
    protected ConnectStep attempt(ServerId s) {
        history = history.opened(s);
        return ConnectStep.connected(List.of(new ClientEffect.RecordHistory(history),
                new ClientEffect.Send(new EoMessage.HistoryUpload(self, s, history))));
    }

    /** A clean end: H[s] := now, durably. */
    @Override
    protected List<ClientEffect> ended(ServerId s) {
        history = history.ended(s, clock.now());
        return List.of(new ClientEffect.RecordHistory(history));
    }

    /** The spec's {@code ClientLoseH}: the stored history is gone; it reads UNKNOWN (Z17). */
    @Override
    public void loseHistory() {
        history = ClientHistory.unknown();
    }

    @Override
    public ClientHistory history() {
        return history;
    }
}
