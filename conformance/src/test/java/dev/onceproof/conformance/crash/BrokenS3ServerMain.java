package dev.onceproof.conformance.crash;

import dev.onceproof.exactlyonce.EoSeams;
import dev.onceproof.exactlyonce.S3Server;
import dev.onceproof.exactlyonce.ServerOp;

/**
 * The server SIGKILL run's control ({@link S3ServerSigkillValidationTest}): {@link S3ServerMain} over a
 * core broken through its journaling seam, one that applies its D changes but leaves them out of
 * its records ({@code ServerOp.AddD}), so what a restart reads back from the journal lacks the
 * notes delivered before the kill. A main on the test classpath, which the child JVM shares.
 */
public final class BrokenS3ServerMain {

    private BrokenS3ServerMain() {
    }

    public static void main(String[] args) throws Exception {
        S3ServerMain.run(args, core -> (S3Server) EoSeams.withoutJournaling(core, ServerOp.AddD.class));
    }
}
