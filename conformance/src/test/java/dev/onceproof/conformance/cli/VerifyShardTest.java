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
        for (int n = 1; n <= 4; n++) {
            List<String> models = new ArrayList<>();
            List<String> families = new ArrayList<>();
            for (int i = 1; i <= n; i++) {
                VerifyShard.Selection s = VerifyShard.select(repo, manifest, all, manifest.families(), 1,
                        new Shards.Spec(i, n));
                s.models().forEach(m -> models.add(m.name()));
                families.addAll(s.traceFamilies());
                assertThat(s.description()).contains("this run is shard " + i + "/" + n);
                // The same split again: nothing in it depends on the run.
                assertThat(VerifyShard.select(repo, manifest, all, manifest.families(), 1, new Shards.Spec(i, n)))
                        .isEqualTo(s);
            }
            assertThat(models).doesNotHaveDuplicates()
                    .containsExactlyInAnyOrderElementsOf(all.stream().map(ModelEntry::name).toList());
            assertThat(families).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(manifest.families());
        }
    }
}
