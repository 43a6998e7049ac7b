package dev.onceproof.exactlyonce;

/**
 * Mutation seam of {@link S3Server}: how HandleClient picks the next note.
 *
 * <p>{@link #CORRECTED} re-checks {@code i in K - D} when it sends (notes Z5). {@link #PRINTED} is
 * App. A.4 as published: {@code U = K - D} is computed once when the session starts and the loop
 * walks U while ServerSynch runs beside it, so a note purged meanwhile (client told to forget it)
 * is still sent and processed again (race R3). It exists for the specs' refuted model, the Lincheck
 * racy control and the replay of that model's counterexample; never use it for real.
 */
public enum S3Variant {
    CORRECTED,
    PRINTED
}
