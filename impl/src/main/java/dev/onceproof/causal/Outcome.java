package dev.onceproof.causal;

/** What a step did with its input. */
public enum Outcome {
    /** Taken: buffered, served, learnt from, or a timer acted on. */
    ACCEPTED,
    /** An event already delivered or buffered here (an original after its recovered copy, a network duplicate). */
    DUPLICATE,
    /** A timer for an event that is no longer in the phase the timer belongs to (it arrived meanwhile). */
    IGNORED,
    /** Refused; see {@link Step#refusal()}. */
    REFUSED
}
