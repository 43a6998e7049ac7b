package dev.onceproof.conformance.report;

import java.util.List;

/**
 * One statement of a paper and the evidence the project has for it.
 *
 * @param id        unique within the family, kebab-case
 * @param statement the paper's statement, short, in our words
 * @param location  where in the paper: a section ("sec. 2.3"), a figure ("Fig. 2-2"), a line of the
 *                  extracted seed text ("L343"), or several
 */
public record Statement(String id, String statement, String location, List<Evidence> evidence) {

    public Statement {
        evidence = evidence == null ? List.of() : List.copyOf(evidence);
    }
}
