package dev.onceproof.conformance.trace;

import java.util.List;
import java.util.Set;

/**
 * One trace file's content, not yet written.
 *
 * @param family      the folder under traces/
 * @param fileName    name-seedN.jsonl or name.jsonl
 * @param content     the exact bytes to write (UTF-8)
 * @param taken       the actions this trace takes (Init excluded)
 * @param specActions the sub-actions of Next that TLC's coverage report listed (simulations only)
 */
public record GeneratedTrace(String family, String fileName, String content, Set<String> taken,
                             List<String> specActions) {
}
