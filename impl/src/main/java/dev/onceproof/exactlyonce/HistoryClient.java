package dev.onceproof.exactlyonce;

/**
 * A client that keeps Strategy 6's connect history ({@link S6Client}; test doubles with a safeguard
 * removed implement it too, so a replay can show it catches them).
 */
public interface HistoryClient extends ClientCore {

    /** H as it is now (what the last {@link ClientEffect.RecordHistory} wrote). */
    ClientHistory history();

    /** The spec's {@code ClientLoseH}: H becomes UNKNOWN (Z17). */
    void loseHistory();
}
