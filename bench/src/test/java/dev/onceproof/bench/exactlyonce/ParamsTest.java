package dev.onceproof.bench.exactlyonce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ParamsTest {

    @Test
    void baseValuesAreTable1() {
        Params b = Params.base();
        assertThat(b.asMap()).containsExactly(
                org.assertj.core.api.Assertions.entry("D", 30.0), org.assertj.core.api.Assertions.entry("N", 10.0),
                org.assertj.core.api.Assertions.entry("Tc", 15.0), org.assertj.core.api.Assertions.entry("alpha", 0.05),
                org.assertj.core.api.Assertions.entry("beta", 0.25), org.assertj.core.api.Assertions.entry("tcap", 0.2),
                org.assertj.core.api.Assertions.entry("q", 20.0), org.assertj.core.api.Assertions.entry("Tr", 100.0),
                org.assertj.core.api.Assertions.entry("Tu", 300.0), org.assertj.core.api.Assertions.entry("dprime", 10.0),
                org.assertj.core.api.Assertions.entry("tprime", 10.0));
        assertThat(b.lambda()).isEqualTo(0.3, org.assertj.core.data.Offset.offset(1e-12));
    }

    @Test
    void setAppliesEveryAssignmentAndAcceptsThePapersSpellings() {
        Params p = Params.base().withAll("D=60, q=12, t_cap=0, d'=4.5, T_r=250");
        assertThat(p.D()).isEqualTo(60);
        assertThat(p.q()).isEqualTo(12);
        assertThat(p.tcap()).isZero();
        assertThat(p.dPrime()).isEqualTo(4.5);
        assertThat(p.Tr()).isEqualTo(250);
        // checked as a whole: N=7 alone would not divide D=30
        assertThat(Params.base().withAll("N=7,D=35").N()).isEqualTo(7);
    }

    @Test
    void unknownNameIsNamed() {
        assertThatThrownBy(() -> Params.base().withAll("Tx=3"))
                .isInstanceOf(ParamException.class).hasMessageContaining("unknown parameter 'Tx'")
                .hasMessageContaining("Tc");
        assertThatThrownBy(() -> Params.base().with("lambda", 0.4))
                .isInstanceOf(ParamException.class).hasMessageContaining("alpha + beta");
    }

    @Test
    void outOfDomainValuesNameTheParameterAndTheRule() {
        assertThatThrownBy(() -> Params.base().with("N", 7)).isInstanceOf(ParamException.class)
                .hasMessageContaining("parameter N").hasMessageContaining("does not divide D = 30");
        assertThatThrownBy(() -> Params.base().with("q", 0)).isInstanceOf(ParamException.class)
                .hasMessageContaining("parameter q").hasMessageContaining(">= 1");
        assertThatThrownBy(() -> Params.base().with("Tc", -1)).isInstanceOf(ParamException.class)
                .hasMessageContaining("parameter Tc").hasMessageContaining("negative");
        assertThatThrownBy(() -> Params.base().with("tprime", -0.5)).hasMessageContaining("parameter tprime");
        assertThatThrownBy(() -> Params.base().with("Tu", 0)).hasMessageContaining("parameter Tu")
                .hasMessageContaining("> 0");
        assertThatThrownBy(() -> Params.base().with("beta", 0)).hasMessageContaining("parameter beta");
        assertThatThrownBy(() -> Params.base().with("q", 2.5)).hasMessageContaining("parameter q")
                .hasMessageContaining("whole number");
        assertThatThrownBy(() -> Params.base().with("alpha", Double.NaN)).hasMessageContaining("parameter alpha");
        assertThatThrownBy(() -> Params.base().withAll("D=abc")).hasMessageContaining("parameter D")
                .hasMessageContaining("not a number");
        assertThatThrownBy(() -> Params.base().withAll("D60")).hasMessageContaining("not NAME=VALUE");
    }

    @Test
    void aRefusedSetLeavesTheOriginalUnchanged() {
        Params base = Params.base();
        assertThatThrownBy(() -> base.withAll("D=60,q=-3")).isInstanceOf(ParamException.class);
        assertThat(base).isEqualTo(Params.base());
    }
}
