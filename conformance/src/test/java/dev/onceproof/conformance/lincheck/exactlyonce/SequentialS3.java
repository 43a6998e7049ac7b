package dev.onceproof.conformance.lincheck.exactlyonce;

import dev.onceproof.exactlyonce.S3Variant;

/**
 * Lincheck's sequential specification for the Strategy 3 server: the same world and operations as
 * {@link S3LincheckBase}, with server B the bare sequential {@link dev.onceproof.exactlyonce.S3Server}
 * (corrected HandleClient), the core that trace replay ties to ExactlyOnceS3.tla.
 */
public class SequentialS3 extends S3LincheckBase {

    public SequentialS3() {
        super(S3Variant.CORRECTED, true);
    }
}
