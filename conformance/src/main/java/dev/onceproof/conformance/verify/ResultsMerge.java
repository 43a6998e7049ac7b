package dev.onceproof.conformance.verify;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

/**
 * Combines the results of the shards of one verify run ({@code --shard I/N} on N machines) into one
 * summary. It refuses to call a partial run a pass: every shard 1..N must be there exactly once,
 * from the same commit and the same selection of models, and the shards together must hold every
 * selected model exactly once. Each violation is a failure of the merged result, named.
 */
public final class ResultsMerge {

    private ResultsMerge() {
    }

    public static VerifyResults merge(Map<Path, VerifyResults> shards, String command) {
        List<String> problems = new ArrayList<>();
        if (shards.isEmpty()) {
            throw new IllegalArgumentException("no results files to merge");
        }
        Integer count = null;
        Map<Integer, Path> seen = new HashMap<>();
        String commit = null;
        List<String> selection = null;
        String startedAt = null;
        double seconds = 0;
        for (Map.Entry<Path, VerifyResults> e : shards.entrySet()) {
            VerifyResults r = e.getValue();
            Path f = e.getKey();
            if (r.shard() == null) {
                problems.add(f + " is not a shard's results (it has no \"shard\")");
                continue;
            }
            String[] parts = r.shard().split("/");
            int i = Integer.parseInt(parts[0]);
            int n = Integer.parseInt(parts[1]);
            if (count == null) {
                count = n;
            } else if (count != n) {
                problems.add(f + " is shard " + r.shard() + ", the others are of " + count);
            }
            Path before = seen.put(i, f);
            if (before != null) {
                problems.add("shard " + i + " is given twice: " + before + " and " + f);
            }
            if (commit == null) {
                commit = r.commit();
            } else if (!Objects.equals(commit, r.commit())) {
                problems.add(f + " is from commit " + r.commit() + ", the others from " + commit);
            }
            if (selection == null) {
                selection = r.selection();
            } else if (!selection.equals(r.selection())) {
                problems.add(f + " selected other models than the other shards (another command or manifest)");
            }
            startedAt = startedAt == null || r.startedAt().compareTo(startedAt) < 0 ? r.startedAt() : startedAt;
            seconds = Math.max(seconds, r.seconds());
        }
        if (count != null) {
            for (int i = 1; i <= count; i++) {
                if (!seen.containsKey(i)) {
                    problems.add("shard " + i + "/" + count + " is missing");
                }
            }
        }
        Map<String, VerifyResults.Model> models = new LinkedHashMap<>();
        Map<String, Integer> copies = new HashMap<>();
        List<VerifyResults.Trace> traces = new ArrayList<>();
        List<VerifyResults.Claim> claims = new ArrayList<>();
        List<VerifyResults.Validation> validations = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        boolean ok = true;
        for (VerifyResults r : shards.values()) {
            for (VerifyResults.Model m : r.models()) {
                copies.merge(m.name(), 1, Integer::sum);
                models.putIfAbsent(m.name(), m);
            }
            traces.addAll(r.traces());
            claims.addAll(r.claims());
            validations.addAll(r.validations());
            failures.addAll(r.failures());
            ok &= r.ok();
        }
        copies.forEach((name, n) -> {
            if (n > 1) {
                problems.add("model " + name + " was run by " + n + " shards");
            }
        });
        List<VerifyResults.Model> ordered = new ArrayList<>();
        TreeSet<String> missing = new TreeSet<>();
        for (String name : selection == null ? List.<String>of() : selection) {
            if (models.containsKey(name)) {
                ordered.add(models.remove(name));
            } else {
                missing.add(name);
            }
        }
        if (!missing.isEmpty()) {
            problems.add(missing.size() + " selected models are in no shard's results: " + String.join(", ", missing));
        }
        if (!models.isEmpty()) {
            problems.add("models no shard selected: " + String.join(", ", models.keySet()));
            ordered.addAll(models.values());
        }
        problems.forEach(p -> failures.add("merge: " + p));
        return new VerifyResults(VerifyResults.SCHEMA, commit, startedAt, seconds, command, null,
                ok && problems.isEmpty(), ordered, traces, claims, failures, selection == null ? List.of() : selection,
                validations);
    }
}
