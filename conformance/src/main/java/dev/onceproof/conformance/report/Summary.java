package dev.onceproof.conformance.report;

import dev.onceproof.conformance.report.ProofMap.FamilyResult;
import dev.onceproof.conformance.report.ProofMap.Flag;
import dev.onceproof.conformance.report.ProofMap.StatementResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** What both renderings share: the numbers at the top and how a value reads. */
final class Summary {

    private Summary() {
    }

    static String results(LastResults r) {
        if (r.file() == null) {
            return "no results file: every model, trace and claim reads as not run (run ./onceproof verify)";
        }
        return r.file() + " (" + (r.command() == null ? "verify" : r.command())
                + (r.commit() == null ? "" : ", commit " + r.commit())
                + (r.startedAt() == null ? "" : ", started " + r.startedAt())
                + (r.shard() == null ? "" : ", shard " + r.shard()) + ")";
    }

    /** family/id of every statement carrying the flag, in family order. */
    static List<String> carrying(List<FamilyResult> families, Flag flag) {
        List<String> out = new ArrayList<>();
        for (FamilyResult f : families) {
            for (StatementResult s : f.rows()) {
                if (s.flags().contains(flag)) {
                    out.add(f.statements().family() + "/" + s.statement().id());
                }
            }
        }
        return out;
    }

    static String seconds(Double s) {
        return s == null ? "" : String.format(Locale.ROOT, "%.1f s", s);
    }

    static String count(Number n) {
        return n == null ? "" : String.format(Locale.ROOT, "%,d", n.longValue());
    }

    static String canFail(ProofMap.EvidenceResult e) {
        return e.cannotFail().map(w -> "no: " + w).orElse("yes");
    }

    /** The statement's flags; for one with nothing that can fail, the reasons of its evidence too. */
    static String flags(StatementResult s) {
        return String.join("; ", s.flags().stream().map(f -> f != Flag.CANNOT_FAIL ? f.label
                : f.label + " (" + String.join(", ", s.evidence().stream()
                        .map(e -> e.cannotFail().orElse("")).filter(w -> !w.isEmpty()).distinct().toList()) + ")").toList());
    }
}
