package dev.onceproof.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class InMemoryStableStorageTest {

    @Test
    void holdsTheLastWriteAndRefusesToGoBackwards() {
        InMemoryStableStorage s = new InMemoryStableStorage();
        assertThat(s.read()).isEmpty();
        s.write(10);
        s.write(10);
        s.write(12);
        assertThat(s.read()).hasValue(12);
        assertThatThrownBy(() -> s.write(11))
                .isInstanceOf(StableStorageBackwardsException.class)
                .hasMessage("latest 11 is below stored latest 12; stable latest must never go backwards (paper 2.3)");
        assertThat(s.read()).hasValue(12);
    }
}
