package dev.onceproof.exactlyonce;

/**
 * The exactly-once cores' package-private mutation seams, opened to the conformance tests (this
 * class sits in the cores' package, on the test classpath only), so a replay test builds a broken
 * core the way the runtime builds the real one.
 */
public final class EoSeams {

    private EoSeams() {
    }

    /**
     * A Strategy 0-3 server core that applies the operations of {@code kind} but leaves them out
     * of its records (a change it forgets to journal): its store drifts from it.
     */
    public static ServerCore withoutJournaling(ServerCore core, Class<? extends ServerOp> kind) {
        if (core instanceof S3Server s3) {
            return s3.withoutJournaling(kind);
        }
        return ((StreamServer) core).withoutJournaling(kind);
    }

    /** A Strategy 3 server whose restarts do not reconfirm the notes it sees in every D (S3Server.reconfirm). */
    public static S3Server withoutReconfirm(S3Server server) {
        return server.withoutReconfirm();
    }

    /** Strategy 1's servers merge a peer's prefix by overwriting it (ExactlyOnceS1Msg's rule "merge" removed). */
    public static StrategyConfig prefixOverwrite(StrategyConfig config) {
        return config.withPrefixOverwrite();
    }

    /**
     * A Strategy 0 server whose forget rule lacks one guard: {@code confirmed = false} drops
     * {@code Confirmed(s, i)} (MutS0MsgForgetUnconfirmed), {@code te = false} the T_e wait
     * (MutS0MsgForgetEarly).
     */
    public static ServerCore s0ForgetWithout(ServerConfig config, EoClock clock, ServerDurableState durable,
            boolean confirmed, boolean te) {
        return new S0Server(config, clock, durable, !confirmed, !te);
    }

    /**
     * A Strategy 2 server with replicas as messages (no {@code replicasStoredAtOnce}) and one of its
     * settle rules removed: {@code settleWait = false} counts a reply to a request started before a
     * number settled (the cores before the fix, Settle = FALSE); {@code restartWait = false} counts
     * every number settled after a restart (MutS2MsgAsyncRestartSettles).
     */
    public static ServerCore s2AsyncWithout(ServerConfig config, EoClock clock, int w, ServerDurableState durable,
            boolean settleWait, boolean restartWait) {
        S2Server s = new S2Server(config, clock, w, durable, true, true, settleWait, false);
        return restartWait ? s : s.withoutRestartWait();
    }

    /** The defects of a Strategy 2 server's sync and reuse rules, one per seam. */
    public enum S2Defect {
        /**
         * A stale sync's removal takes a new incarnation: StreamServer's watermark off, and rule
         * "tag" off too (S2Server.staleRemovalTakesNewerIncarnation). Under the tag the watermark is
         * redundant (MutS2MsgAsyncTaggedNoWatermark passes), so a core without the watermark alone
         * does what ExactlyOnceS2Msg does; the cores before both rules do not.
         */
        NO_WATERMARK,
        /** A reply to any round confirms (S2Server.confirm without reply.round() > issuedAt). */
        CONFIRM_ANY_ROUND,
        /** A replica of a reused number leaves the old incarnation's removal in place. */
        KEEP_REMOVED_ON_REUSE,
        /** Condition 1 checked only at a literal reuse: the first wrap goes unchecked. */
        CONDITION_AT_REUSE_ONLY,
        /**
         * Rule "tag" off (S2Server.staleRemovalTakesNewerIncarnation), the watermark kept: a
         * removal naming an older incarnation takes the newer one held (the lost replica).
         */
        STALE_REMOVAL_TAKES_NEWER_INCARNATION
    }

    /** A Strategy 2 server with {@code defect}, replicas stored at once or as messages. */
    public static ServerCore s2With(S2Defect defect, ServerConfig config, EoClock clock, int w,
            ServerDurableState durable, boolean replicasAsMessages) {
        S2Server s = new S2Server(config, clock, w, durable, defect != S2Defect.NO_WATERMARK, true, true,
                !replicasAsMessages);
        return switch (defect) {
            case NO_WATERMARK -> s.staleRemovalTakesNewerIncarnation();
            case CONFIRM_ANY_ROUND -> s.confirmingAnyRound();
            case KEEP_REMOVED_ON_REUSE -> s.keepingRemovedOnReuse();
            case CONDITION_AT_REUSE_ONLY -> s.checkingConditionAtReuseOnly();
            case STALE_REMOVAL_TAKES_NEWER_INCARNATION -> s.staleRemovalTakesNewerIncarnation();
        };
    }

    /** A Strategy 2 server whose Condition 1 does not wait T_e after the confirmations. */
    public static ServerCore s2WithoutTeWait(ServerConfig config, EoClock clock, int w, ServerDurableState durable) {
        return new S2Server(config, clock, w, durable, true, false, true, true); // replay: replicas at once
    }
}
