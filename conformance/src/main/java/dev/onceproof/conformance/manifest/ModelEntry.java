package dev.onceproof.conformance.manifest;

/**
 * One model TLC checks (specs/CONVENTIONS.md).
 *
 * @param checkDeadlock optional in the manifest, default false: bounded protocol models stop at their
 *                      bounds (time, sends, crashes), which TLC would call a deadlock. A model that
 *                      means to check for deadlock says "checkDeadlock": true; a model whose expect is
 *                      "deadlock" has it implied.
 * @param seconds       optional: the wall seconds TLC took on this model when run alone, as
 *                      {@code ./onceproof models time} last measured it (null if never measured).
 *                      Shards are balanced on it; it changes no result.
 */
public record ModelEntry(String name, String family, String module, String cfg, Mode mode, String expect,
                         long distinctStates, int depth, String why, boolean checkDeadlock,
                         Double seconds) {

    public enum Mode { CI, DEEP }

    public boolean expectsPass() {
        return expect.equals("pass");
    }
}
