package dev.onceproof.conformance.verify;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultsMergeTest {

    @TempDir
    Path dir;

    private static VerifyResults.Model model(String name, String status) {
        return new VerifyResults.Model(name, "f", "deep", "f/M.tla", "f/M.cfg", "pass", "pass", status, 10, 3, 1.5,
                "sha256:x", null, List.of(), List.of());
    }

    private static VerifyResults shard(String shard, List<VerifyResults.Model> models) {
        return new VerifyResults(VerifyResults.SCHEMA, "abc", "2026-11-27T00:00:00Z", 10, "verify --shard " + shard,
                shard, models.stream().allMatch(m -> m.status().equals("ok")), models, List.of(), List.of(),
                List.of(), List.of("a", "b", "c"), List.of());
    }

    /** Through the JSON files, as a CI merge job reads them. */
    private VerifyResults merge(VerifyResults... shards) {
        Map<Path, VerifyResults> in = new LinkedHashMap<>();
        for (int i = 0; i < shards.length; i++) {
            Path f = dir.resolve("shard" + i + ".json");
            ResultsJson.write(f, shards[i]);
            in.put(f, ResultsJson.read(f));
        }
        return ResultsMerge.merge(in, "verify merge");
    }

    @Test
    void twoShardsMergeIntoTheSelectionsOrder() {
        VerifyResults m = merge(shard("2/2", List.of(model("b", "ok"))), shard("1/2", List.of(model("c", "ok"),
                model("a", "ok"))));
        assertThat(m.ok()).as(m.failures().toString()).isTrue();
        assertThat(m.models()).extracting(VerifyResults.Model::name).containsExactly("a", "b", "c");
        assertThat(m.shard()).isNull();
    }

    @Test
    void aMissingShardFailsTheMerge() {
        VerifyResults m = merge(shard("1/2", List.of(model("c", "ok"), model("a", "ok"))));
        assertThat(m.ok()).isFalse();
        assertThat(m.failures()).contains("merge: shard 2/2 is missing",
                "merge: 1 selected models are in no shard's results: b");
    }

    @Test
    void aDoubledShardOrModelFailsTheMerge() {
        VerifyResults m = merge(shard("1/2", List.of(model("a", "ok"), model("c", "ok"))),
                shard("2/2", List.of(model("b", "ok"), model("c", "ok"))));
        assertThat(m.failures()).containsExactly("merge: model c was run by 2 shards");
        VerifyResults twice = merge(shard("1/2", List.of(model("a", "ok"))), shard("1/2", List.of(model("b", "ok"))));
        assertThat(twice.failures()).anyMatch(f -> f.startsWith("merge: shard 1 is given twice"))
                .contains("merge: shard 2/2 is missing");
    }

    @Test
    void aFailingShardFailsTheMergedResult() {
        VerifyResults m = merge(shard("1/2", List.of(model("a", "ok"), model("c", "fail"))),
                shard("2/2", List.of(model("b", "ok"))));
        assertThat(m.ok()).isFalse();
        assertThat(m.failures()).isEmpty();
    }
}
