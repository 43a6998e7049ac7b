package dev.onceproof.conformance.verify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class ShardsTest {

    private static List<Shards.Unit> units(long seed, int n) {
        Random r = new Random(seed);
        List<Shards.Unit> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            // Skewed like the manifest: many small models, a few long ones.
            out.add(new Shards.Unit("model:m" + i, Math.round(Math.pow(10, r.nextDouble() * 3) * 10) / 10.0));
        }
        return out;
    }

    @Test
    void everyUnitLandsInExactlyOneShardAndTheSplitDoesNotDependOnTheInputOrder() {
        for (int count = 1; count <= 5; count++) {
            List<Shards.Unit> units = units(count, 60);
            List<List<Shards.Unit>> a = Shards.split(units, count);
            List<Shards.Unit> shuffled = new ArrayList<>(units);
            Collections.shuffle(shuffled, new Random(99));
            assertThat(Shards.split(shuffled, count)).isEqualTo(a);
            List<String> names = a.stream().flatMap(List::stream).map(Shards.Unit::name).toList();
            assertThat(names).hasSize(units.size()).doesNotHaveDuplicates()
                    .containsExactlyInAnyOrderElementsOf(units.stream().map(Shards.Unit::name).toList());
        }
    }

    @Test
    void tiesAreBrokenByName() {
        List<Shards.Unit> units = List.of(new Shards.Unit("b", 1), new Shards.Unit("a", 1), new Shards.Unit("c", 1));
        assertThat(Shards.split(units, 2).get(0)).extracting(Shards.Unit::name).containsExactly("a", "c");
    }

    @Test
    void theShardsAreBalanced() {
        for (long seed = 1; seed <= 20; seed++) {
            List<Shards.Unit> units = units(seed, 40);
            List<List<Shards.Unit>> s = Shards.split(units, 3);
            double total = units.stream().mapToDouble(Shards.Unit::seconds).sum();
            double longestUnit = units.stream().mapToDouble(Shards.Unit::seconds).max().orElseThrow();
            double max = s.stream().mapToDouble(Shards::seconds).max().orElseThrow();
            double min = s.stream().mapToDouble(Shards::seconds).min().orElseThrow();
            // LPT: no shard exceeds the best possible by more than one unit, and the best possible
            // is at least max(mean, longest unit); so max <= mean + longest unit.
            assertThat(max).isLessThanOrEqualTo(Math.max(total / 3, longestUnit) + longestUnit);
            assertThat(max - min).isLessThanOrEqualTo(longestUnit + 1e-9);
        }
        // A plain round robin over the same kind of input is far worse: the balance is the split's doing.
        List<Shards.Unit> units = new ArrayList<>(List.of(new Shards.Unit("a", 10), new Shards.Unit("b", 1),
                new Shards.Unit("c", 10), new Shards.Unit("d", 1)));
        assertThat(Shards.split(units, 2)).extracting(Shards::seconds).containsExactly(11.0, 11.0);
    }

    @Test
    void aBadShardIsNamed() {
        assertThat(Shards.Spec.parse("2/3")).isEqualTo(new Shards.Spec(2, 3));
        for (String bad : List.of("0/2", "3/2", "1", "a/b", "1/0")) {
            assertThatThrownBy(() -> Shards.Spec.parse(bad)).hasMessageContaining("--shard is \"" + bad + "\"");
        }
        assertThat(new TreeSet<>(List.of(Shards.Spec.parse(" 1/2").toString()))).containsExactly("1/2");
    }
}
