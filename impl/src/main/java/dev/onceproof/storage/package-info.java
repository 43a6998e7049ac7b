/** Stable storage for SCMP's latest: durable, checksummed, never backwards (paper 2.3). */
package dev.onceproof.storage;
