package dev.onceproof.conformance.crash.gather;

/**
 * The parameters of a Strategy 4-6 crash run ({@link GatherCrashExperiment}), checked when built.
 *
 * @param strategy 4, 5 or 6
 * @param minUpMillis least time from every process being up to the next kill being armed
 * @param maxUpMillis most such time
 * @param control which safeguard the run removes ({@link Control#NONE}: none)
 * @param kills SIGKILLs before the run settles
 * @param clientKillPercent of the kills, how many fall on the client (when it is connected)
 * @param syncLossPercent syncs the relay drops
 * @param errorPercent aDeliver calls that fail without processing (a hand-off timeout, L191)
 * @param settleMillis how long the run goes on without kills before everything is stopped
 * @param ackDelayMillis how long a successful aDeliver call takes to return after the client
 *     processed the note (the acknowledgement's way back over the wireless link): the window
 *     of 3.3.1 between processing and the logged outcome, the same in fixed and control runs
 */
public record GatherCrashConfig(int strategy, int kills, long seed, long minUpMillis, long maxUpMillis, Control control,
        int clientKillPercent, int syncLossPercent, int errorPercent, long settleMillis, long ackDelayMillis) {
    public GatherCrashConfig {
        if (strategy < 4 || strategy > 6 || kills < 1 || minUpMillis < 0 || maxUpMillis < minUpMillis
                || clientKillPercent < 0 || clientKillPercent > 100 || syncLossPercent < 0 || syncLossPercent > 100
                || errorPercent < 0 || errorPercent > 100 || settleMillis < 0 || ackDelayMillis < 0) {
            throw new IllegalArgumentException("need strategy 4..6, kills >= 1, 0 <= minUp <= maxUp, percents "
                    + "0..100, settle >= 0; got " + this);
        }
        if (control == Control.REBOOT_FORGETS_END && strategy != 5) {
            throw new IllegalArgumentException("control reboot-forgets-end is Strategy 5's (its client's T_r)");
        }
        if (control == Control.H_AT_DISCONNECT && strategy != 6) {
            throw new IllegalArgumentException("control h-at-disconnect is Strategy 6's (its client history)");
        }
    }

    public static GatherCrashConfig standard(int strategy, long seed) {
        return new GatherCrashConfig(strategy, 20, seed, 300, 700, Control.NONE, strategy == 6 ? 50 : 0,
                strategy == 6 ? 50 : 30, 5, 2_500, 20);
    }

    public GatherCrashConfig withControl(Control c) {
        return new GatherCrashConfig(strategy, kills, seed, minUpMillis, maxUpMillis, c, clientKillPercent, syncLossPercent,
                errorPercent, settleMillis, ackDelayMillis);
    }

    /** Strategy 6's client as the victim of this share of the kills (when it is connected). */
    public GatherCrashConfig withClientKills(int percent) {
        return new GatherCrashConfig(strategy, kills, seed, minUpMillis, maxUpMillis, control, percent, syncLossPercent,
                errorPercent, settleMillis, ackDelayMillis);
    }

    public GatherCrashConfig withKills(int n) {
        return new GatherCrashConfig(strategy, n, seed, minUpMillis, maxUpMillis, control, clientKillPercent, syncLossPercent,
                errorPercent, settleMillis, ackDelayMillis);
    }

    /**
     * T_r, T_u, skew, T_e in ms. Strategy 5: T_r 600, T_u 100, window T_r - 2 skew - T_e = 496 ms
     * (so a connect after T_r usually finds peers fresh). Strategy 6: T_e 20, so a sync sent 24 ms
     * after the client's end time for a server counts as fresh for it. The relay's delay of a sync
     * stays within T_e.
     */
    long[] times() {
        return switch (strategy) {
            case 5 -> new long[] {600, 100, 2, 100};
            case 6 -> new long[] {0, 1, 2, 20};
            default -> new long[] {0, 1, 0, 0};
        };
    }

    /**
     * Strategy 5's run with step logs keeps spec time: T_r, T_u, skew, T_e in units of
     * {@link #UNIT_MILLIS} (T_r 60, T_u 10, skew 1, T_e 10: 600, 100, 10, 100 ms, the same T_r, T_u
     * and T_e as {@link #times()}, a skew of one unit because the servers' clocks run 0, 1 and 2 units
     * ahead, {@link #OFFSETS}). Why 10 ms: the validator takes one Tick step per unit, so a 10 s run
     * is 1,000 Ticks; at 1 ms it would be 10,000 with the skew still a few units.
     */
    long[] unitTimes() {
        // Strategy 6: T_e 2 units (its 20 ms), skew 1 unit: the history margin 2 skew + T_e is 4 units.
        return strategy == 6 ? new long[] {0, 1, 1, 2} : new long[] {60, 10, 1, 10};
    }

    static final long UNIT_MILLIS = 10;
    static final String OFFSETS = "A:0,B:1,C:2";

    /** Which safeguard a control run removes ({@code none}: the real thing). */
    public enum Control {
        NONE("none"), AFTER_CALL("after-call"), RESOLVE_AS_ERROR("resolve-as-error"), H_AT_DISCONNECT("h-at-disconnect"),
        REBOOT_FORGETS_END("reboot-forgets-end");

        final String flag;

        Control(String flag) {
            this.flag = flag;
        }

        public static Control of(String flag) {
            for (Control c : values()) {
                if (c.flag.equals(flag)) {
                    return c;
                }
            }
            throw new IllegalArgumentException("control \"" + flag + "\": one of none, after-call, resolve-as-error, "
                    + "h-at-disconnect, reboot-forgets-end");
        }

        @Override
        public String toString() {
            return flag;
        }
    }
}
