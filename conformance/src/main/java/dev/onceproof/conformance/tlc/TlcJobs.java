package dev.onceproof.conformance.tlc;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * Runs independent TLC jobs (models, trace generations) side by side. Each TLC runs in its own JVM
 * with one worker, so its counts stay deterministic whatever runs beside it; running two at once on
 * a 2-core machine roughly halves the wall time of a family's models, which keeps
 * {@code ./onceproof verify} and {@code mvn verify} within their budgets as families are added.
 *
 * <p>The number of jobs is {@code ONCEPROOF_TLC_JOBS} when set, else the number of processors the
 * JVM sees (a {@code taskset -c 1} run gets 1).
 */
public final class TlcJobs {

    private TlcJobs() {
    }

    public static int defaultJobs() {
        String env = System.getenv("ONCEPROOF_TLC_JOBS");
        if (env != null && !env.isBlank()) {
            try {
                int n = Integer.parseInt(env.trim());
                if (n >= 1) {
                    return n;
                }
            } catch (NumberFormatException e) {
                // fall through to the error below
            }
            throw new IllegalArgumentException("ONCEPROOF_TLC_JOBS is \"" + env + "\"; it must be a whole number >= 1");
        }
        return Math.max(1, Runtime.getRuntime().availableProcessors());
    }

    /**
     * Applies f to every item with at most {@code jobs} running at once and returns the results in
     * the items' order. {@code onDone} hears of each result as it completes (in completion order,
     * one call at a time), for progress lines. A job that throws makes this throw the first failure
     * in the items' order, after every job has ended.
     */
    public static <T, R> List<R> map(List<T> items, int jobs, Function<T, R> f, BiConsumer<Integer, R> onDone) {
        if (jobs < 1) {
            throw new IllegalArgumentException("jobs is " + jobs + "; it must be >= 1");
        }
        if (jobs == 1 || items.size() <= 1) {
            List<R> out = new ArrayList<>(items.size());
            for (int i = 0; i < items.size(); i++) {
                R r = f.apply(items.get(i));
                onDone.accept(i, r);
                out.add(r);
            }
            return out;
        }
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(jobs, items.size()), r -> {
            Thread t = new Thread(r, "tlc-job");
            t.setDaemon(true);
            return t;
        });
        Object progressLock = new Object();
        try {
            List<Future<R>> futures = new ArrayList<>(items.size());
            for (int i = 0; i < items.size(); i++) {
                int index = i;
                futures.add(pool.submit(() -> {
                    R r = f.apply(items.get(index));
                    synchronized (progressLock) {
                        onDone.accept(index, r);
                    }
                    return r;
                }));
            }
            List<R> out = new ArrayList<>(items.size());
            RuntimeException first = null;
            for (Future<R> fu : futures) {
                try {
                    out.add(fu.get());
                } catch (ExecutionException e) {
                    out.add(null);
                    if (first == null) {
                        first = e.getCause() instanceof RuntimeException re ? re
                                : new IllegalStateException(e.getCause());
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while waiting for TLC jobs", e);
                }
            }
            if (first != null) {
                throw first;
            }
            return out;
        } finally {
            pool.shutdownNow();
        }
    }
}
