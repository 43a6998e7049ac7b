package dev.onceproof.conformance.tlc;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class TlcOutputParserTest {

    @Test
    void nestedMessagesAreSplitAndTheOuterKeepsTheInnerText() {
        List<TlcMessage> m = TlcOutputParser.parse(List.of(
                "Parsing file /x/Rt.tla",
                "@!@!@STARTMSG 1000:1 @!@!@",
                "TLC threw an unexpected exception.",
                ": @!@!@STARTMSG 2154:0 @!@!@",
                "Cannot cast StringValue to IntValue",
                "@!@!@ENDMSG 2154 @!@!@",
                "@!@!@ENDMSG 1000 @!@!@"));
        assertThat(m).extracting(TlcMessage::code).containsExactly(0, 2154, 1000);
        assertThat(m.get(0).text()).isEqualTo("Parsing file /x/Rt.tla");
        assertThat(m.get(1).text()).isEqualTo("Cannot cast StringValue to IntValue");
        assertThat(m.get(2).text()).contains("TLC threw", "Cannot cast").doesNotContain("@!@!@");
        assertThat(m.get(2).isError()).isTrue();
    }

    @Test
    void counterexampleStatesKeepActionAndVariables() {
        List<TlcMessage> m = TlcOutputParser.parse(List.of(
                "@!@!@STARTMSG 2110:1 @!@!@", "Invariant Small is violated.", "@!@!@ENDMSG 2110 @!@!@",
                "@!@!@STARTMSG 2217:4 @!@!@", "1: <Initial predicate>", "/\\ x = 0", "/\\ s = <<>>", "",
                "@!@!@ENDMSG 2217 @!@!@",
                "@!@!@STARTMSG 2217:4 @!@!@", "2: <Inc line 7, col 11 to line 8, col 52 of module Counter>",
                "/\\ x = 1", "/\\ s = << 1,", "   2 >>", "", "@!@!@ENDMSG 2217 @!@!@",
                "@!@!@STARTMSG 2199:0 @!@!@", "5 states generated, 1,234 distinct states found, 2 states left on queue.",
                "@!@!@ENDMSG 2199 @!@!@",
                "@!@!@STARTMSG 2194:0 @!@!@", "The depth of the complete state graph search is 3.",
                "@!@!@ENDMSG 2194 @!@!@"));
        TlcResult r = TlcResultReader.read(m, java.time.Duration.ZERO, 12, null);
        assertThat(r.outcome()).isEqualTo(Outcome.INVARIANT_VIOLATED);
        assertThat(r.property()).isEqualTo("Small");
        assertThat(r.distinctStates()).isEqualTo(1234);
        assertThat(r.depth()).isEqualTo(3);
        assertThat(r.counterexample()).extracting(TraceState::label).containsExactly("Initial predicate", "Inc");
        assertThat(r.counterexample().get(1).variables().keySet()).containsExactly("x", "s");
    }
}
