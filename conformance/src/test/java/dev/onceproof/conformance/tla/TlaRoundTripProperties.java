package dev.onceproof.conformance.tla;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.AbstractMap.SimpleImmutableEntry;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Whatever value TLC prints, parsing its text gives the value back, and JSON rendering agrees. */
class TlaRoundTripProperties {

    @Property(tries = 500)
    void printedValuesParseBackToThemselves(@ForAll("values") TlaValue v) {
        assertThat(TlaParser.parse(TlaPrinter.print(v))).isEqualTo(v);
    }

    @Property(tries = 200)
    void jsonOfTheParsedTextEqualsJsonOfTheValue(@ForAll("values") TlaValue v) {
        assertThat(TlaJson.render(TlaParser.parse(TlaPrinter.print(v)))).isEqualTo(TlaJson.render(v));
    }

    @Provide
    Arbitrary<TlaValue> values() {
        return value(3);
    }

    private Arbitrary<TlaValue> value(int depth) {
        Arbitrary<TlaValue> scalar = Arbitraries.oneOf(
                Arbitraries.longs().between(-1_000_000, 1_000_000).map(TlaValue.Int::new),
                Arbitraries.strings().withChars("abc \"\\\n\tz09").ofMaxLength(6).map(TlaValue.Str::new),
                Arbitraries.of(true, false).map(TlaValue.Bool::new));
        if (depth == 0) {
            return scalar;
        }
        Arbitrary<TlaValue> inner = Arbitraries.lazy(() -> value(depth - 1));
        Arbitrary<List<TlaValue>> list = inner.list().ofMaxSize(3);
        Arbitrary<TlaValue> record = Arbitraries.maps(Arbitraries.strings().withChars("abxyz").ofMinLength(1)
                        .ofMaxLength(4), inner).ofMinSize(1).ofMaxSize(3)
                .map(m -> new TlaValue.Record(entries(m)));
        Arbitrary<TlaValue> function = Arbitraries.maps(Arbitraries.integers().between(-5, 5), inner)
                .ofMinSize(1).ofMaxSize(3).map(m -> {
                    List<Map.Entry<TlaValue, TlaValue>> pairs = new ArrayList<>();
                    m.forEach((k, v) -> pairs.add(new SimpleImmutableEntry<>(new TlaValue.Int(k), v)));
                    return new TlaValue.Function(pairs);
                });
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(4, scalar),
                net.jqwik.api.Tuple.of(1, list.map(TlaValue.Seq::new)),
                net.jqwik.api.Tuple.of(1, list.map(TlaValue.Set::new)),
                net.jqwik.api.Tuple.of(1, record),
                net.jqwik.api.Tuple.of(1, function));
    }

    private static List<Map.Entry<String, TlaValue>> entries(Map<String, TlaValue> m) {
        List<Map.Entry<String, TlaValue>> out = new ArrayList<>();
        new LinkedHashMap<>(m).forEach((k, v) -> out.add(new SimpleImmutableEntry<>(k, v)));
        return out;
    }
}
