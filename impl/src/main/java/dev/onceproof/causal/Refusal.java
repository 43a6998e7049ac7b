package dev.onceproof.causal;

/**
 * Why a node refused an input. Every refusal is counted and leaves the node's state as it was; none
 * throws. The step that refuses carries a detail naming the value and the rule.
 */
public enum Refusal {
    /** A datagram the wire decoder could not read (counted by the runtime through the node). */
    MALFORMED,
    /** A node id outside 0..n-1 (sender, origin, or requested event's origin). */
    UNKNOWN_NODE,
    /** A vector clock whose size is not the group size. */
    VECTOR_SIZE,
    /** A message that says it comes from this node. */
    FROM_SELF,
    /** An event whose clock does not have vc[origin] = seq. */
    INCONSISTENT_VECTOR,
    /** A message that claims this node issued events it never issued. */
    FUTURE_OWN_EVENT,
    /** A request for an event this node does not hold (never had it, or collected it as stable). */
    UNKNOWN_EVENT,
    /** The delivery buffer is at maxBuffered. */
    BUFFER_FULL,
    /** The recovery store is at maxStored: no new broadcast until garbage collection frees it. */
    STORE_FULL,
    /** From, or about, a node removed from this node's view (CausalMembership): it may rejoin only under a new id. */
    EXCLUDED,
    /** A second view change while one runs (one at a time). */
    VIEW_CHANGE,
    /** The node has crashed (crash-stop): it takes no more steps. */
    CRASHED
}
