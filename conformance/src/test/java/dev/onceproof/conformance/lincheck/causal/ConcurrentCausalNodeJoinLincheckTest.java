package dev.onceproof.conformance.lincheck.causal;

import dev.onceproof.causal.CausalNode;
import dev.onceproof.causal.ConcurrentCausalNode;
import dev.onceproof.causal.Event;
import dev.onceproof.causal.EventId;
import dev.onceproof.causal.ManualTicker;
import dev.onceproof.causal.Payload;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.jetbrains.kotlinx.lincheck.LinChecker;
import org.jetbrains.kotlinx.lincheck.annotations.Operation;
import org.jetbrains.kotlinx.lincheck.annotations.Param;
import org.jetbrains.kotlinx.lincheck.annotations.Validate;
import org.jetbrains.kotlinx.lincheck.paramgen.IntGen;
import org.junit.jupiter.api.Test;

/**
 * Link 3 for the join under a new id (specs/causal/CausalJoin.tla, issue 21): {@link
 * ConcurrentCausalNode}'s join steps beside receipts and broadcasts are linearizable with respect to
 * {@link CausalNode} ({@link SequentialJoin}), and the application sees causal order, each event
 * once. The member's late install ({@code installJoin}) beside a receipt of the joiner's event J:
 * either J is refused (before the install) or taken (after), never half; the donor's {@code join}
 * beside a broadcast: the handed prefix has the broadcast or not, as some sequential order says.
 * Model checking and stress, the bounds of the other causal Lincheck tests.
 */
@Param(name = "message", gen = IntGen.class, conf = "0:1")
public class ConcurrentCausalNodeJoinLincheckTest {

    /** The targeted races: the install beside J's receipt, the donor's snapshot beside a broadcast. */
    static final String[][] SCENARIOS = {
        {"", "install()", "receive(0)", ""},
        {"", "donate()", "broadcast()", ""},
    };

    private final Application application = new Application();
    private final ConcurrentCausalNode node =
            new ConcurrentCausalNode(new CausalNode(SequentialJoin.config(), new ManualTicker(0)), application);

    public ConcurrentCausalNodeJoinLincheckTest() {
        node.spare(SequentialJoin.N3);
        node.spare(SequentialJoin.N4);
    }

    @Operation
    public String receive(@Param(name = "message") int message) {
        return CausalWorld.result(node.handle(SequentialJoin.message(message)));
    }

    @Operation
    public String broadcast() {
        return CausalWorld.result(node.broadcast(Payload.EMPTY));
    }

    @Operation
    public String install() {
        try {
            return CausalWorld.result(node.installJoin(SequentialJoin.N3, SequentialJoin.N2, SequentialJoin.zero()));
        } catch (IllegalArgumentException twice) {
            return "REFUSED";
        }
    }

    @Operation
    public String donate() {
        try {
            return SequentialJoin.handed(node.join(SequentialJoin.N4));
        } catch (IllegalArgumentException twice) {
            return "REFUSED";
        }
    }

    @Validate
    public void applicationSawCausalOrderOnce() {
        application.validate();
    }

    @Test
    void modelChecking() {
        LinChecker.check(ConcurrentCausalNodeJoinLincheckTest.class, CausalLincheckOptions.modelChecking(
                ConcurrentCausalNodeJoinLincheckTest.class, SequentialJoin.class, SCENARIOS));
    }

    @Test
    void stress() {
        LinChecker.check(ConcurrentCausalNodeJoinLincheckTest.class, CausalLincheckOptions.stress(
                ConcurrentCausalNodeJoinLincheckTest.class, SequentialJoin.class, SCENARIOS));
    }

    /**
     * The application: K = (n2, 1) after J = (n3, 1), n1's own events in order, none twice. A named
     * class, not a lambda (Lincheck cannot walk hidden classes, lincheck#340).
     */
    static final class Application implements Consumer<Event> {
        private final List<EventId> log = new ArrayList<>();
        private String violation;

        @Override
        public synchronized void accept(Event e) {
            EventId id = e.id();
            if (log.contains(id) && violation == null) {
                violation = "NoDuplicateDelivery: " + id + " delivered twice; log " + log;
            }
            EventId dep = id.equals(EventId.of(1, 1)) ? EventId.of(2, 1)
                    : id.origin().index() == 0 && id.seq() > 1 ? EventId.of(0, id.seq() - 1) : null;
            if (dep != null && !log.contains(dep) && violation == null) {
                violation = "CausalOrder: " + id + " delivered before " + dep + "; log " + log;
            }
            log.add(id);
        }

        synchronized void validate() {
            if (violation != null) {
                throw new IllegalStateException(violation);
            }
        }
    }
}
