package dev.onceproof.exactlyonce;

import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * The result of a Strategy 4-6 client's connect attempt. <b>Ordering rule:</b> carry out
 * {@code effects} in order; a {@link ClientEffect.RecordHistory} (Strategy 6's {@code H[s] := OPEN})
 * must be durable before anything after it is sent, so no note of this connection can be processed
 * while the stored history still shows an older end time for s (notes Z17, mutant M6-b).
 *
 * @param earliest when refused ({@link ConnectVerdict#TOO_SOON}), the first client time a connect
 *     is allowed
 */
public record ConnectStep(ConnectVerdict verdict, List<ClientEffect> effects, OptionalLong earliest) {

    public ConnectStep {
        Objects.requireNonNull(verdict, "verdict");
        effects = List.copyOf(effects);
        Objects.requireNonNull(earliest, "earliest");
    }

    static ConnectStep connected(List<ClientEffect> effects) {
        return new ConnectStep(ConnectVerdict.CONNECTED, effects, OptionalLong.empty());
    }
}
