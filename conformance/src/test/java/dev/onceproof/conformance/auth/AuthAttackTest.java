package dev.onceproof.conformance.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 13 item 3 with real processes on loopback: without keys an attacker process that forges
 * CALLs for the victim's connection gets them executed and the victim's calls rejected as
 * duplicates; with a key file shared by server and victim, both counts are 0 and the server
 * counted the forgeries as unauthenticated.
 */
@Timeout(300)
class AuthAttackTest {

    @TempDir
    Path dir;

    @Test
    void withoutKeysTheAttackWorksAndWithKeysItDoesNot() throws Exception {
        AuthAttack.Result plain = AuthAttack.run(dir, false, 20);
        AuthAttack.Result keyed = AuthAttack.run(dir, true, 20);
        System.out.println("AuthAttackTest: " + plain + "\nAuthAttackTest: " + keyed);
        assertThat(plain.forgedExecuted()).as("forged calls executed without keys").isPositive();
        assertThat(plain.wronglyRejected()).as("victim calls rejected without keys").isPositive();
        assertThat(keyed.forgedExecuted()).as("forged calls executed with keys").isZero();
        assertThat(keyed.wronglyRejected()).as("victim calls rejected with keys").isZero();
        assertThat(keyed.replied()).as("victim calls replied with keys").isEqualTo(20);
        assertThat(keyed.unauthenticatedDropped()).as("forgeries the server dropped").isPositive();
    }
}
