package dev.onceproof.conformance.verify;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;

/**
 * Verify's results as JUnit XML, the shape Surefire writes and Jenkins, GitLab and the GitHub test
 * reporters read: {@code testsuites/testsuite(name, tests, failures, errors, skipped, time)/testcase
 * (classname, name, time)} with a {@code failure}, {@code error} or {@code skipped} child whose
 * message is one line and whose text is the counterexample table or the replay mismatch.
 *
 * <p>One testsuite per kind and family ({@code onceproof.models.scmp}, {@code onceproof.traces.scmp},
 * {@code onceproof.validations.rpc}, {@code onceproof.claims.exactlyonce}); one testcase per model, per
 * trace (stored and fresh), per validated run (stored and fresh; a rejected one is a failure whose
 * text is the rejection report) and per claim. A model or trace that disagrees is a failure; one that could not run, or a budgeted run that
 * stopped before the end (incomplete), is an error: never a pass. A stale claim is skipped with the
 * reason, or a failure under {@code --strict-claims}.
 */
public final class JUnitReport {

    public static final String FILE = "TEST-onceproof.xml";

    private record Case(String suite, String classname, String name, double seconds, String kind, String message,
                        String type, String body) {
    }

    private JUnitReport() {
    }

    /** Writes DIR/TEST-onceproof.xml; returns its path. */
    public static Path write(Path dir, VerifyResults r, boolean strictClaims) {
        Path file = dir.resolve(FILE);
        try {
            Files.createDirectories(dir);
            Path tmp = Files.createTempFile(dir, FILE, ".tmp");
            try (OutputStream os = Files.newOutputStream(tmp)) {
                write(os, r, strictClaims);
            }
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        } catch (XMLStreamException e) {
            throw new IllegalStateException("cannot write " + file + ": " + e.getMessage(), e);
        }
        return file;
    }

    static void write(OutputStream os, VerifyResults r, boolean strictClaims) throws XMLStreamException {
        Map<String, List<Case>> suites = new TreeMap<>();
        for (VerifyResults.Model m : r.models()) {
            String text = String.join("\n", m.problems())
                    + (m.untakenActions().isEmpty() ? "" : "\nactions never taken: " + m.untakenActions())
                    + (m.counterexample() == null ? "" : "\n\n" + m.counterexample());
            String kind = switch (m.status()) {
                case "ok" -> null;
                case "fail" -> "failure";
                default -> "error";
            };
            add(suites, new Case("onceproof.models." + m.family(), "onceproof.models." + m.family(), m.name(),
                    m.seconds(), kind, m.status() + ": " + firstLine(m.problems().isEmpty() ? m.outcome()
                    : m.problems().get(0)), m.status(), text));
        }
        for (VerifyResults.Trace t : r.traces()) {
            String kind = switch (t.status()) {
                case "ok" -> null;
                case "fail", "stale" -> "failure";
                case "skipped" -> "skipped";
                default -> "error";
            };
            String why = t.mismatch() != null ? t.mismatch() : t.reason();
            add(suites, new Case("onceproof.traces." + t.family(), "onceproof.traces." + t.family() + "." + t.kind(),
                    t.file(), t.seconds(), kind, t.status() + ": " + firstLine(why), t.status(), why));
        }
        for (VerifyResults.Claim c : r.claims()) {
            String kind = switch (c.status()) {
                case "ok" -> null;
                case "fail" -> "failure";
                case "stale" -> strictClaims ? "failure" : "skipped";
                case "skipped" -> "skipped";
                default -> "error";
            };
            String body = c.statement() == null ? c.reason() : c.statement() + "\nmeasured: " + c.measured()
                    + (c.expected() == null ? "" : "\nexpected: " + c.expected()) + "\nbasis: " + c.basis()
                    + (c.reason() == null ? "" : "\n" + c.reason());
            add(suites, new Case("onceproof.claims." + c.family(), "onceproof.claims." + c.family(),
                    c.id() == null ? c.file() : c.id() + (c.location() == null ? "" : " (" + c.location() + ")"), 0,
                    kind, c.status() + " (" + c.verdict() + "): " + firstLine(c.reason() != null ? c.reason()
                    : c.measured()), c.status(), body));
        }
        for (VerifyResults.Validation v : r.validations()) {
            String kind = switch (v.status()) {
                case "ok" -> null;
                case "rejected" -> "failure";
                case "skipped" -> "skipped";
                default -> "error";
            };
            String why = v.report() != null ? v.report() : v.reason();
            add(suites, new Case("onceproof.validations." + v.family(), "onceproof.validations." + v.family() + "."
                    + v.kind(), v.name(), v.seconds(), kind, v.status() + ": " + firstLine(why), v.status(), why));
        }
        XMLStreamWriter w = XMLOutputFactory.newInstance().createXMLStreamWriter(os, "UTF-8");
        w.writeStartDocument("UTF-8", "1.0");
        w.writeCharacters("\n");
        w.writeStartElement("testsuites");
        w.writeAttribute("name", "onceproof verify");
        List<Case> all = new ArrayList<>();
        suites.values().forEach(all::addAll);
        attributes(w, all);
        for (Map.Entry<String, List<Case>> s : suites.entrySet()) {
            w.writeCharacters("\n  ");
            w.writeStartElement("testsuite");
            w.writeAttribute("name", s.getKey());
            attributes(w, s.getValue());
            for (Case c : s.getValue()) {
                w.writeCharacters("\n    ");
                w.writeStartElement("testcase");
                w.writeAttribute("classname", c.classname());
                w.writeAttribute("name", clean(c.name()));
                w.writeAttribute("time", time(c.seconds()));
                if (c.kind() != null) {
                    w.writeCharacters("\n      ");
                    w.writeStartElement(c.kind());
                    w.writeAttribute("message", clean(c.message()));
                    if (!c.kind().equals("skipped")) {
                        w.writeAttribute("type", c.type());
                        w.writeCharacters(clean(c.body() == null ? "" : c.body()));
                    }
                    w.writeEndElement();
                    w.writeCharacters("\n    ");
                }
                w.writeEndElement();
            }
            w.writeCharacters("\n  ");
            w.writeEndElement();
        }
        w.writeCharacters("\n");
        w.writeEndElement();
        w.writeCharacters("\n");
        w.writeEndDocument();
        w.close();
    }

    private static void add(Map<String, List<Case>> suites, Case c) {
        suites.computeIfAbsent(c.suite(), k -> new ArrayList<>()).add(c);
    }

    private static void attributes(XMLStreamWriter w, List<Case> cases) throws XMLStreamException {
        w.writeAttribute("tests", Integer.toString(cases.size()));
        w.writeAttribute("failures", Long.toString(cases.stream().filter(c -> "failure".equals(c.kind())).count()));
        w.writeAttribute("errors", Long.toString(cases.stream().filter(c -> "error".equals(c.kind())).count()));
        w.writeAttribute("skipped", Long.toString(cases.stream().filter(c -> "skipped".equals(c.kind())).count()));
        w.writeAttribute("time", time(cases.stream().mapToDouble(Case::seconds).sum()));
    }

    private static String time(double seconds) {
        return String.format(Locale.ROOT, "%.3f", seconds);
    }

    private static String firstLine(String s) {
        return s == null ? "" : s.lines().findFirst().orElse("");
    }

    /** XML 1.0 cannot hold most control characters, even escaped; TLC output may carry some. */
    static String clean(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        s.codePoints().forEach(c -> {
            boolean ok = c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0xD7FF) || (c >= 0xE000 && c <= 0xFFFD)
                    || c >= 0x10000 && c <= 0x10FFFF;
            sb.appendCodePoint(ok ? c : '?');
        });
        return sb.toString();
    }
}
