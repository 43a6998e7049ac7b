package dev.onceproof.conformance.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.conformance.manifest.Manifest;
import dev.onceproof.conformance.manifest.ModelEntry;
import dev.onceproof.conformance.manifest.Repo;
import dev.onceproof.conformance.verify.Shards;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The shards of the real manifest: together every model and every family's trace work, each once. */
class VerifyShardTest {

    @Test
    void theShardsOfTheManifestCoverEveryModelAndFamilyExactlyOnce() {
        Repo repo = Repo.locate();
        Manifest manifest = repo.manifest();
        List<ModelEntry> all = manifest.models();
        // The units (their seconds hash every family's trace inputs, the costly part) are made twice
        // and must agree: nothing in the split depends on the run. Each shard is then cut from them.
        List<Shards.Unit> units = VerifyShard.units(repo, manifest, all, manifest.families(), 1);
        assertThat(VerifyShard.units(repo, manifest, all, manifest.families(), 1)).isEqualTo(units);
        for (int n = 1; n <= 4; n++) {
            List<String> models = new ArrayList<>();
            List<String> families = new ArrayList<>();
            for (int i = 1; i <= n; i++) {
                VerifyShard.Selection s = VerifyShard.select(units, all, manifest.families(), new Shards.Spec(i, n));
                s.models().forEach(m -> models.add(m.name()));
                families.addAll(s.traceFamilies());
                assertThat(s.description()).contains("this run is shard " + i + "/" + n);
            }
            assertThat(models).doesNotHaveDuplicates()
                    .containsExactlyInAnyOrderElementsOf(all.stream().map(ModelEntry::name).toList());
            assertThat(families).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(manifest.families());
        }
        // What verify --shard calls gives the same as the parts above.
        assertThat(VerifyShard.select(repo, manifest, all, manifest.families(), 1, new Shards.Spec(2, 3)))
                .isEqualTo(VerifyShard.select(units, all, manifest.families(), new Shards.Spec(2, 3)));
    }
}
