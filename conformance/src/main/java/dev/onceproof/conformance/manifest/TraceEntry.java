package dev.onceproof.conformance.manifest;

import java.util.List;

/**
 * One kind of trace to generate (specs/CONVENTIONS.md).
 *
 * @param seeds simulate: one trace file per seed; empty for targeted
 * @param depth simulate: TLC's -depth (states per trace, the initial one included); 0 for targeted
 * @param trap  targeted: the invariant NotX whose shortest counterexample is the trace; null for simulate
 * @param seconds optional: the wall seconds of the entry's longest single TLC run (one seed, or the
 *              targeted run) when run alone, as {@code ./onceproof models time} last measured it; null
 *              if never measured. Trace budgets and shards are derived from it.
 */
public record TraceEntry(String name, String family, String module, String cfg, Kind kind,
                         List<Long> seeds, int depth, String trap, String why, Double seconds) {

    public enum Kind { SIMULATE, TARGETED }

    public TraceEntry {
        seeds = List.copyOf(seeds);
    }

    /** The file name stem for one trace: name-seedN for a simulation, name for a targeted trace. */
    public String fileStem(Long seed) {
        return kind == Kind.SIMULATE ? name + "-seed" + seed : name;
    }
}
