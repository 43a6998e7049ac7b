package dev.onceproof.conformance.trace;

/** TLC could not make a trace the manifest asks for; says which entry and what TLC reported. */
public final class TraceGenerationException extends RuntimeException {

    public TraceGenerationException(String message) {
        super(message);
    }
}
