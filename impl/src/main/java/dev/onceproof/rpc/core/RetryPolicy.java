package dev.onceproof.rpc.core;

/**
 * The client's retransmission schedule (paper 3.1: "clients retransmit CALL messages on a periodic
 * basis ... If several retransmissions have occurred without a response from the server, the client
 * times out the call").
 *
 * <p>The server's rho must cover the whole schedule (2.4: rho >= epsilon + delta + RT(N), RT(N)
 * being {@code interval * (maxTries - 1)} here), or late retransmissions of a call the server never
 * saw are flagged as duplicates and rejected.
 *
 * @param intervalMillis time between transmissions, and from the last one to the timeout
 * @param maxTries       transmissions of one call, the first included (>= 1)
 */
public record RetryPolicy(long intervalMillis, int maxTries) {

    public RetryPolicy {
        if (intervalMillis <= 0) {
            throw new IllegalArgumentException("retransmission interval " + intervalMillis + " ms is not positive");
        }
        if (maxTries < 1) {
            throw new IllegalArgumentException("maxTries " + maxTries + " is below 1");
        }
    }

    /** RT(N) of paper 2.4: from the first transmission to the last. */
    public long retransmissionSpan() {
        return intervalMillis * (maxTries - 1);
    }
}
