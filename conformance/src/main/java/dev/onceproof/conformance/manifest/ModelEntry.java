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
 * @param simulate      optional: null for a model TLC searches exhaustively; else a seeded random
 *                      simulation of the model (issue 20 item 4: beyond an exhaustive run in the deep
 *                      budget, "a seeded -simulate run with a stated depth and number of behaviours").
 *                      For such an entry {@code distinctStates} is the number of states TLC checked
 *                      when it passes (TLC counts no distinct states in a simulation), 0 when it must
 *                      find a violation, and {@code depth} the length of the violating behaviour (for
 *                      a pass, the simulation's depth).
 */
public record ModelEntry(String name, String family, String module, String cfg, Mode mode, String expect,
                         long distinctStates, int depth, String why, boolean checkDeadlock,
                         Double seconds, Simulate simulate) {

    /** The entry of an exhaustive model (no simulation). */
    public ModelEntry(String name, String family, String module, String cfg, Mode mode, String expect,
                      long distinctStates, int depth, String why, boolean checkDeadlock, Double seconds) {
        this(name, family, module, cfg, mode, expect, distinctStates, depth, why, checkDeadlock, seconds, null);
    }

    public enum Mode { CI, DEEP }

    /**
     * A seeded simulation: TLC's {@code -simulate num=behaviours -depth depth -seed seed} with one
     * worker, which draws the same behaviours on every run.
     */
    public record Simulate(long behaviours, int depth, long seed) {
        public Simulate {
            if (behaviours < 1 || depth < 1) {
                throw new IllegalArgumentException("a simulation needs at least one behaviour of depth 1, has "
                        + behaviours + " behaviours of depth " + depth);
            }
        }

        /** TLC's arguments for it. */
        public java.util.List<String> tlcArgs() {
            return java.util.List.of("-simulate", "num=" + behaviours, "-depth", Integer.toString(depth),
                    "-seed", Long.toString(seed));
        }
    }

    public boolean simulated() {
        return simulate != null;
    }

    public boolean expectsPass() {
        return expect.equals("pass");
    }
}
