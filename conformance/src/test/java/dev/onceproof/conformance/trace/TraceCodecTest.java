package dev.onceproof.conformance.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.onceproof.conformance.replay.ReplayResult;
import dev.onceproof.conformance.replay.ReplayerRegistry;
import dev.onceproof.conformance.replay.TraceReplayer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TraceCodecTest {

    private static final String HEADER = "{\"cfg\":\"scmp/X.cfg\",\"command\":\"./onceproof traces generate --name x\","
            + "\"constants\":{},\"depth\":null,\"kind\":\"targeted\",\"module\":\"scmp/X.tla\",\"seed\":null,"
            + "\"spec\":\"SCMP\",\"trace\":\"x\",\"trap\":\"NotX\"}\n";
    private static final String INIT = "{\"action\":\"Init\",\"params\":{},\"state\":{\"x\":0},\"step\":0}\n";
    private static final Path FILE = Path.of("traces/scmp/x.jsonl");

    @Test
    void writtenTracesReadBackUnchanged() {
        TraceFile t = TraceCodec.parse(FILE, HEADER + INIT);
        assertThat(t.header().inputs()).isNull();
        assertThat(t.steps().get(0).line()).isEqualTo(2);
        // Writing adds the digest of the file's own bytes (no inputs: a hand-made trace has none).
        String written = TraceCodec.write(t.header(), t.steps());
        assertThat(written).matches("\\{.*\"depth\":null,\"digest\":\"[0-9a-f]{64}\",\"kind\".*\n"
                + java.util.regex.Pattern.quote(INIT));
        TraceFile back = TraceCodec.parse(FILE, written);
        assertThat(TraceCodec.write(back.header(), back.steps())).isEqualTo(written);
        assertThat(TraceCodec.notAsWritten(written)).isNull();
    }

    @Test
    void theDigestCatchesAnyChangeAfterWriting() {
        TraceFile t = TraceCodec.parse(FILE, HEADER + INIT);
        String written = TraceCodec.write(t.header(), t.steps());
        assertThat(TraceCodec.notAsWritten(HEADER + INIT)).isEqualTo("line 1 has no digest");
        assertThat(TraceCodec.notAsWritten(written.replace("\"x\":0", "\"x\":1")))
                .isEqualTo("the digest does not match the content (changed after generation)");
        assertThat(TraceCodec.notAsWritten(written.replace("\"trap\":\"NotX\"", "\"trap\":\"NotY\"")))
                .isEqualTo("the digest does not match the content (changed after generation)");
        assertThat(TraceCodec.notAsWritten(written + INIT.replace("0", "1")))
                .isEqualTo("the digest does not match the content (changed after generation)");
        assertThat(TraceCodec.notAsWritten(written.replace("{\"cfg\"", "{ \"cfg\"")))
                .isEqualTo("line 1 is not in canonical form");
        assertThat(TraceCodec.notAsWritten(written.substring(0, written.length() - 1)))
                .startsWith("the file is empty or its last line");
    }

    @Test
    void malformedJsonLineIsNamedByFileAndLine() {
        assertThatThrownBy(() -> TraceCodec.parse(FILE, HEADER + INIT + "{\"action\": \n"))
                .isInstanceOf(TraceFormatException.class)
                .hasMessageStartingWith(FILE + ":3: malformed JSON");
    }

    @Test
    void missingFieldIsNamedByFileAndLine() {
        assertThatThrownBy(() -> TraceCodec.parse(FILE, HEADER + INIT.replace(",\"state\":{\"x\":0}", "")))
                .hasMessage(FILE + ":2: a step is missing field \"state\"");
        assertThatThrownBy(() -> TraceCodec.parse(FILE, HEADER.replace("\"seed\":null,", "") + INIT))
                .hasMessage(FILE + ":1: the header is missing field \"seed\"");
    }

    @Test
    void unknownFieldAndOutOfOrderStepsAreRefused() {
        assertThatThrownBy(() -> TraceCodec.parse(FILE, HEADER + INIT.replace("\"step\":0", "\"step\":0,\"extra\":1")))
                .hasMessage(FILE + ":2: a step has an unknown field \"extra\"");
        assertThatThrownBy(() -> TraceCodec.parse(FILE, HEADER + INIT + INIT))
                .hasMessageStartingWith(FILE + ":3: field \"step\" is 0, expected 1");
    }

    @Test
    void truncatedFileIsRefused() {
        String text = HEADER + INIT;
        assertThatThrownBy(() -> TraceCodec.parse(FILE, text.substring(0, text.length() - 1)))
                .hasMessageContaining("the last line does not end with \\n");
    }

    @Test
    void unknownActionIsReportedWithFileAndLine(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("x.jsonl");
        Files.writeString(f, HEADER.replace("\"constants\":{}", "\"constants\":{\"Beta\":1,\"ClassOf\":{\"c1\":\"k1\"},"
                + "\"Epsilon\":1,\"Mode\":\"resilient\",\"Rho\":{\"k1\":2}}") + INIT.replace("\"Init\"", "\"Teleport\""));
        ReplayResult r = new TraceReplayer(ReplayerRegistry.standard()).replay(f);
        assertThat(r.passed()).isFalse();
        assertThat(r.report()).startsWith(f + ":2: step 0, Teleport: unknown action \"Teleport\" for spec SCMP");
    }

    @Test
    void malformedFileFailsReplayWithFileAndLine(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("x.jsonl");
        Files.writeString(f, HEADER + "not json\n");
        ReplayResult r = new TraceReplayer(ReplayerRegistry.standard()).replay(f);
        assertThat(r.report()).startsWith(f + ":2: not a valid trace: malformed JSON");
    }
}
