package dev.onceproof.exactlyonce;

import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * Strategy 5, Delay Reconnect (L217-225): the client promises "to refrain from connecting to any
 * server until time T_r has passed since its last connection", measured from the end of the last
 * connection to the start of the next (footnote 3). This core enforces the promise: a connect
 * sooner is refused with {@link ConnectVerdict#TOO_SOON}, changing nothing.
 *
 * <p>State: the volatile connection and the end time of the last one, on the injected clock (used
 * as a timer: only differences of its readings matter). A client that lost that time (a crash, a
 * reboot: {@link #rebooted}) waits T_r from then, since its last connection may have just ended
 * (notes 2.6 action 1).
 */
public final class S5Client extends GatherClient {

    private final EoClock clock;
    private final long tr;
    /** When the last connection ended; empty: never connected (or known not to have). */
    private OptionalLong lastEnd;

    public S5Client(ClientId self, EoClock clock, long tr, OptionalLong lastEnd) {
        super(self);
        this.clock = Objects.requireNonNull(clock, "clock");
        if (tr < 0 || tr > GatherConfig.MAX_TIME) {
            throw new IllegalArgumentException("rule R1: T_r = " + tr + " must be in 0.." + GatherConfig.MAX_TIME
                    + " ticks");
        }
        this.tr = tr;
        this.lastEnd = Objects.requireNonNull(lastEnd, "lastEnd");
        if (lastEnd.isPresent() && lastEnd.getAsLong() > clock.now()) {
            throw new IllegalArgumentException("last connection end " + lastEnd.getAsLong() + " is after now "
                    + clock.now());
        }
    }

    /** A client that has never connected. */
    public static S5Client fresh(ClientId self, EoClock clock, long tr) {
        return new S5Client(self, clock, tr, OptionalLong.empty());
    }

    /** A client that does not know when its last connection ended: it waits T_r from now. */
    public static S5Client rebooted(ClientId self, EoClock clock, long tr) {
        return new S5Client(self, clock, tr, OptionalLong.of(clock.now()));
    }

    @Override
    protected ConnectStep attempt(ServerId s) {
        if (lastEnd.isPresent() && clock.now() - lastEnd.getAsLong() < tr) {
            return new ConnectStep(ConnectVerdict.TOO_SOON, List.of(), OptionalLong.of(lastEnd.getAsLong() + tr));
        }
        return ConnectStep.connected(List.of());
    }

    @Override
    protected List<ClientEffect> ended(ServerId s) {
        lastEnd = OptionalLong.of(clock.now());
        return List.of();
    }

    /** A crash: the connection ends now, unrecorded; the promise still holds from now. */
    @Override
    public void crash() {
        if (conn().isPresent()) {
            lastEnd = OptionalLong.of(clock.now());
        }
        super.crash();
    }

    public long tr() {
        return tr;
    }

    public OptionalLong lastEnd() {
        return lastEnd;
    }
}
