package dev.onceproof.conformance.tlc;

/**
 * One message of TLC's -tool output: {@code @!@!@STARTMSG code:severity @!@!@ ... @!@!@ENDMSG code @!@!@}.
 * Code 0 is used here for text TLC printed outside any message (SANY's parse errors, PrintT).
 */
public record TlcMessage(int code, int severity, String text) {

    public static final int FREE_TEXT = 0;

    // The codes this tool reads (tlc2.output.EC in TLC 2.18; checked by running the jar).
    public static final int GENERAL = 1000;
    public static final int ASSUMPTION_FALSE = 2104;
    public static final int INVARIANT_VIOLATED_INITIAL = 2107;
    public static final int INVARIANT_VIOLATED = 2110;
    public static final int ACTION_PROPERTY_VIOLATED = 2112;
    public static final int DEADLOCK = 2114;
    public static final int TEMPORAL_VIOLATED = 2116;
    public static final int BACK_TO_STATE = 2122;
    public static final int SUCCESS = 2193;
    public static final int SEARCH_DEPTH = 2194;
    public static final int STATS = 2199;
    public static final int PROGRESS = 2200;
    public static final int STATE = 2217;
    public static final int STUTTERING = 2218;
    public static final int COVERAGE_NEXT = 2772;
    public static final int COVERAGE_INIT = 2773;
    public static final int PARSE_FAILED = 3002;

    public boolean isError() {
        return severity == 1;
    }
}
