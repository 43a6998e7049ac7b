package dev.onceproof.conformance.cli;

import dev.onceproof.rpc.core.RetryPolicy;
import dev.onceproof.scmp.ScmpConfig;
import dev.onceproof.steplog.StepLog;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The headers of RPC step logs: what RPC.tla's constants were in a run of the UDP runtime. */
public final class RpcStepLogs {

    private RpcStepLogs() {
    }

    /** A server incarnation's header: the rho classes, kappa, beta, epsilon (RPC.tla models fixed rho). */
    public static StepLog.Header serverHeader(ScmpConfig config, long kappa, int incarnation) {
        Map<String, Long> rho = new TreeMap<>();
        config.rhoClasses().forEach((k, estimator) -> rho.put(k, estimator.current()));
        return new StepLog.Header("RPC", "resilient", "server").strings("Classes", List.copyOf(rho.keySet()))
                .map("Rho", rho).constant("Kappa", kappa).constant("Beta", config.beta())
                .constant("Epsilon", config.epsilon()).constant("incarnation", incarnation);
    }

    /** A client's header: how many times it transmits a call (RPC.tla's MaxTries). */
    public static StepLog.Header clientHeader(String conn, RetryPolicy policy) {
        return new StepLog.Header("RPC", "resilient", "client-" + conn).constant("MaxTries", policy.maxTries());
    }
}
