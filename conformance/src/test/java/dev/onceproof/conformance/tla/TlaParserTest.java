package dev.onceproof.conformance.tla;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TlaParserTest {

    private static String json(String tla) {
        return TlaJson.render(TlaParser.parse(tla)).toString();
    }

    @Test
    void scalarsParseAsTlcPrintsThem() {
        assertThat(json("-17")).isEqualTo("-17");
        assertThat(json("\"a \\\"quoted\\\" \\\\ word\"")).isEqualTo("\"a \\\"quoted\\\" \\\\ word\"");
        assertThat(json("TRUE")).isEqualTo("true");
        assertThat(json("FALSE")).isEqualTo("false");
    }

    @Test
    void recordsAndStringFunctionsBecomeObjectsWithSortedKeys() {
        assertThat(json("[name |-> \"Receive\", conn |-> \"c1\", ts |-> 4]"))
                .isEqualTo("{\"conn\":\"c1\",\"name\":\"Receive\",\"ts\":4}");
        assertThat(json("(\"b\" :> 2 @@ \"a\" :> 1)")).isEqualTo("{\"a\":1,\"b\":2}");
    }

    @Test
    void sequencesAndSetsBecomeArraysInTlcOrder() {
        assertThat(json("<<1, <<>>, {}>>")).isEqualTo("[1,[],[]]");
        assertThat(json("{[conn |-> \"c1\", ts |-> 2], [conn |-> \"c1\", ts |-> 1]}"))
                .isEqualTo("[{\"conn\":\"c1\",\"ts\":2},{\"conn\":\"c1\",\"ts\":1}]");
        assertThat(json("1..3")).isEqualTo("[1,2,3]");
    }

    @Test
    void integerKeyedFunctionsBecomeObjectsKeyedByTheNumber() {
        assertThat(json("(0 :> TRUE @@ -1 :> FALSE)")).isEqualTo("{\"-1\":false,\"0\":true}");
    }

    @Test
    void valuesSpreadOverSeveralLinesParse() {
        assertThat(json("[ a |-> 1,\n    b |-> <<1,\n 2>> ]")).isEqualTo("{\"a\":1,\"b\":[1,2]}");
    }

    @Test
    void errorsNameThePosition() {
        assertThatThrownBy(() -> TlaParser.parse("[a |-> 1, b 2]"))
                .isInstanceOf(TlaParseException.class)
                .hasMessageContaining("expected '|->' at offset 12 (line 1, column 13)");
        assertThatThrownBy(() -> TlaParser.parse("<<1, 2"))
                .hasMessageContaining("expected ',' at offset 6");
        assertThatThrownBy(() -> TlaParser.parse("\"open"))
                .hasMessageContaining("string is not closed at offset 0");
        assertThatThrownBy(() -> TlaParser.parse("1 2"))
                .hasMessageContaining("unexpected text after the value at offset 2");
        assertThatThrownBy(() -> TlaParser.parse("[a |-> 1, a |-> 2]"))
                .hasMessageContaining("record field a appears twice");
    }

    @Test
    void modelValuesParseButAreRefusedInTraces() {
        assertThat(TlaParser.parse("c1")).isEqualTo(new TlaValue.ModelValue("c1"));
        assertThatThrownBy(() -> json("{c1}")).hasMessageContaining("model value c1 cannot go into a trace");
    }
}
