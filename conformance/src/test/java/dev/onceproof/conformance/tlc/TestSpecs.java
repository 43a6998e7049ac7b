package dev.onceproof.conformance.tlc;

import java.net.URISyntaxException;
import java.nio.file.Path;

/** The tiny specs under src/test/resources/tla/. */
public final class TestSpecs {

    private TestSpecs() {
    }

    public static Path dir() {
        try {
            return Path.of(TestSpecs.class.getResource("/tla/Counter.tla").toURI()).getParent();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    public static Path file(String name) {
        return dir().resolve(name);
    }
}
