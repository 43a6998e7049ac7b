package dev.onceproof.bench.exactlyonce;

/** A model parameter that is unknown or out of its domain; the message names it and the rule. */
public final class ParamException extends IllegalArgumentException {

    private final String parameter;

    public ParamException(String parameter, String rule) {
        super("parameter " + parameter + ": " + rule);
        this.parameter = parameter;
    }

    /** The parameter (or the malformed assignment) refused. */
    public String parameter() {
        return parameter;
    }
}
