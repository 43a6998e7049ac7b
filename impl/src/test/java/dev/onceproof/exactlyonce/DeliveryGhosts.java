package dev.onceproof.exactlyonce;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The simulated worlds' ghost checks over "how many times the client processed each note". */
final class DeliveryGhosts {

    private DeliveryGhosts() {
    }

    /** Notes processed more than once, as "tag xN": the spec's NoDuplicateDelivery, broken. */
    static List<String> duplicates(Map<String, Integer> processed) {
        List<String> d = new ArrayList<>();
        processed.forEach((tag, n) -> {
            if (n > 1) {
                d.add(tag + " x" + n);
            }
        });
        return d;
    }

    /** Created notes the client never processed (EventualDelivery, not yet met). */
    static List<String> unprocessed(List<String> created, Map<String, Integer> processed) {
        List<String> u = new ArrayList<>(created);
        u.removeAll(processed.keySet());
        return u;
    }
}
