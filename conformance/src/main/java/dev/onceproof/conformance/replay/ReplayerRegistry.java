package dev.onceproof.conformance.replay;

import dev.onceproof.conformance.replay.adaptive.AdaptiveReplayer;
import dev.onceproof.conformance.replay.adaptive.EstimatorReplayer;
import dev.onceproof.conformance.replay.causal.CausalReplayer;
import dev.onceproof.conformance.replay.exactlyonce.ExactlyOnceReplayer;
import dev.onceproof.conformance.replay.exactlyonce.S2MsgReplayer;
import dev.onceproof.conformance.replay.hybrid.HybridReplayer;
import dev.onceproof.conformance.replay.rpc.RpcReplayer;
import dev.onceproof.conformance.replay.scmp.ScmpReplayer;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/** Which replayer handles which spec: the one place a new family is registered. */
public final class ReplayerRegistry {

    private final List<FamilyReplayer> replayers;

    public ReplayerRegistry(List<FamilyReplayer> replayers) {
        this.replayers = List.copyOf(replayers);
    }

    /** Every family replayer of the project. Add a family here, one line (adaptive and rpc come next). */
    public static ReplayerRegistry standard() {
        return new ReplayerRegistry(List.of(
                new ScmpReplayer(),
                new AdaptiveReplayer(),
                EstimatorReplayer.unlimited(), EstimatorReplayer.limited(),
                new RpcReplayer(),
                new HybridReplayer(),
                new ExactlyOnceReplayer("ExactlyOnceS0"), new ExactlyOnceReplayer("ExactlyOnceS1"),
                new ExactlyOnceReplayer("ExactlyOnceS0Msg"),
                new ExactlyOnceReplayer("ExactlyOnceS0MsgTimed"), new ExactlyOnceReplayer("ExactlyOnceS1Msg"),
                new ExactlyOnceReplayer("ExactlyOnceS2"), new ExactlyOnceReplayer("ExactlyOnceS2Timed"),
                new S2MsgReplayer("ExactlyOnceS2Msg"), new S2MsgReplayer("ExactlyOnceS2MsgAsync"),
                new ExactlyOnceReplayer("ExactlyOnceS3"),
                new ExactlyOnceReplayer("ExactlyOnceS3Printed"), new ExactlyOnceReplayer("ExactlyOnceS3Timed"),
                new ExactlyOnceReplayer("ExactlyOnceS4"), new ExactlyOnceReplayer("ExactlyOnceS5"),
                new ExactlyOnceReplayer("ExactlyOnceS6"), new ExactlyOnceReplayer("ExactlyOnceS4Deliver"),
                new ExactlyOnceReplayer("ExactlyOnceS4Outcome"), new ExactlyOnceReplayer("ExactlyOnceS5Outcome"),
                new ExactlyOnceReplayer("ExactlyOnceS6Outcome"),
                new CausalReplayer(), CausalReplayer.membership(), CausalReplayer.restart(), CausalReplayer.join()));
    }

    public Optional<FamilyReplayer> forSpec(String spec) {
        return replayers.stream().filter(r -> r.spec().equals(spec)).findFirst();
    }

    public String specs() {
        return replayers.stream().map(FamilyReplayer::spec).sorted().collect(Collectors.joining(", "));
    }

    /** The same registry with one replayer swapped (tests replay on deliberately broken cores). */
    public ReplayerRegistry with(FamilyReplayer replacement) {
        List<FamilyReplayer> list = replayers.stream().filter(r -> !r.spec().equals(replacement.spec()))
                .collect(Collectors.toList());
        list.add(replacement);
        return new ReplayerRegistry(list);
    }
}
