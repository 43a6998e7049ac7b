package dev.onceproof.storage;

import java.util.OptionalLong;

/**
 * Where a resilient SCMP server keeps latest across crashes (paper Fig. 2-2, "Maintaining Latest").
 *
 * <p>Contract: {@link #write} is durable when it returns and never goes backwards (paper 2.3: "The
 * server merely ensures that the value of G.latest on stable storage is monotonic"); a value below
 * the stored one is refused with an exception naming both. {@link #read} returns the last written
 * value, empty if nothing was ever written, and throws rather than guess when the medium is corrupt.
 */
public interface StableStorage {

    OptionalLong read();

    void write(long latest);
}
