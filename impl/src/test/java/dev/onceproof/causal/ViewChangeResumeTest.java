package dev.onceproof.causal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * {@link ViewChange#resume}: the state a survivor taking over the coordinator's role starts from
 * (CausalMembershipRestart: the next survivor in ring order when the coordinator is suspected), as
 * the UDP runtime's ViewCoordinator builds it.
 */
class ViewChangeResumeTest {

    private static final NodeId N1 = NodeId.of(0);
    private static final NodeId N2 = NodeId.of(1);
    private static final NodeId N3 = NodeId.of(2);
    private static final NodeId N4 = NodeId.of(3);

    /**
     * n1's flush on n4 was decided and installed at n2 (n4 left its view), n1 then died: n2 resumes
     * with the unfinished {n4}, suspects n1, collects fresh reports on both and decides both again.
     */
    @Test
    void aTakeOverFlushesTheUnfinishedChangeAndTheSuspectedCoordinatorAgain() {
        ViewChange v = ViewChange.resume(4, Set.of(N1, N2, N3), Set.of(N4));
        assertThat(v.flushing()).containsExactly(N4);
        assertThat(v.survivors()).containsExactly(N1, N2, N3);
        assertThat(v.suspect(N2, N1)).isTrue();
        assertThat(v.flushing()).containsExactly(N1, N4);
        assertThat(v.survivors()).containsExactly(N2, N3);
        assertThat(v.coordinator()).isEqualTo(N2);
        assertThat(v.reported()).isEmpty();
        SeqSet a = new SeqSet(2, new TreeSet<>());
        SeqSet b = new SeqSet(3, new TreeSet<>());
        v.report(N2, Map.of(N1, a, N4, b));
        assertThat(v.decide()).isEmpty();
        v.report(N3, Map.of(N1, b, N4, a));
        assertThat(v.decide()).hasValueSatisfying(d -> assertThat(d).containsEntry(N1, b).containsEntry(N4, b));
        assertThat(v.members()).containsExactlyInAnyOrder(N2, N3);
        assertThat(v.gone()).containsExactlyInAnyOrder(N1, N4);
        v.installed(N2);
        v.installed(N3);
        assertThat(v.flushing()).isEmpty();
    }

    /** With the unfinished change ended, only the suspected coordinator is flushed; ids out of view are gone. */
    @Test
    void afterAnEndedChangeOnlyTheCoordinatorIsFlushed() {
        ViewChange v = ViewChange.resume(4, Set.of(N1, N2, N3), Set.of());
        assertThat(v.gone()).containsExactly(N4);
        assertThat(v.suspect(N2, N1)).isTrue();
        assertThat(v.flushing()).containsExactly(N1);
        assertThat(v.suspect(N2, N4)).as("a removed id is never suspected again").isFalse();
    }

    @Test
    void aTakeOverWithoutSurvivorsIsABrokenContract() {
        assertThatThrownBy(() -> ViewChange.resume(4, Set.of(N4), Set.of(N4))).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("needs survivors");
    }
}
