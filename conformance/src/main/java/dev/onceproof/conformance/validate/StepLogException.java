package dev.onceproof.conformance.validate;

/** A step log that cannot be validated as given: the message names the file, line and field. */
public final class StepLogException extends RuntimeException {

    public StepLogException(String message) {
        super(message);
    }
}
