package dev.tideway.storage.objectstore;

import dev.tideway.common.config.TidewayConfig;
import java.time.Duration;

/**
 * How to reach an S3 store: the {@code tideway.storage.s3} section of a process's configuration
 * (see the storage engine's {@code reference.conf}).
 *
 * @param endpoint an S3-compatible endpoint ({@code http://host:9000}); empty = AWS's for {@code
 *     region}
 * @param pathStyle address objects as {@code endpoint/bucket/key} (most S3-compatible stores)
 * @param accessKey static credentials with {@code secretKey}; empty = the AWS default chain
 * @param partBytes multipart part size; smaller uploads go as one PUT
 * @param maxAttempts attempts per request (exponential backoff with jitter between them)
 * @param whenRequiredChecksums send request checksums only where S3 requires them
 * @param conditionalWrites create version deltas with {@code If-None-Match: *}
 */
public record S3Settings(
    String endpoint,
    String region,
    boolean pathStyle,
    String accessKey,
    String secretKey,
    long partBytes,
    int maxAttempts,
    Duration attemptTimeout,
    Duration callTimeout,
    boolean whenRequiredChecksums,
    boolean conditionalWrites) {

  /** S3's smallest part but the last. */
  public static final long MIN_PART_BYTES = 5L << 20;

  public S3Settings {
    if (accessKey.isEmpty() != secretKey.isEmpty()) {
      throw new IllegalArgumentException(
          "tideway.storage.s3.access-key and secret-key go together: set both, or neither to use"
              + " the AWS default credentials chain");
    }
    if (partBytes < MIN_PART_BYTES) {
      throw new IllegalArgumentException(
          "tideway.storage.s3.part-size must be at least 5MiB (S3's smallest part), got "
              + partBytes);
    }
  }

  /** The settings of {@code config}, validated (errors name the key and its origin). */
  public static S3Settings from(TidewayConfig config) {
    String checksums = config.getString("tideway.storage.s3.checksums");
    if (!checksums.equals("when-supported") && !checksums.equals("when-required")) {
      throw new IllegalArgumentException(
          "tideway.storage.s3.checksums = \""
              + checksums
              + "\" ("
              + config.origin("tideway.storage.s3.checksums")
              + "): expected when-supported or when-required");
    }
    return new S3Settings(
        config.getString("tideway.storage.s3.endpoint"),
        config.getString("tideway.storage.s3.region"),
        config.getBoolean("tideway.storage.s3.path-style"),
        config.getString("tideway.storage.s3.access-key"),
        config.getString("tideway.storage.s3.secret-key"),
        config.getBytes("tideway.storage.s3.part-size", MIN_PART_BYTES, 1L << 30),
        config.getInt("tideway.storage.s3.max-attempts", 1, 100),
        config.getDuration(
            "tideway.storage.s3.attempt-timeout", Duration.ofSeconds(1), Duration.ofHours(1)),
        config.getDuration(
            "tideway.storage.s3.call-timeout", Duration.ofSeconds(1), Duration.ofHours(1)),
        checksums.equals("when-required"),
        config.getBoolean("tideway.storage.s3.conditional-writes"));
  }

  /** For an S3-compatible endpoint with static credentials (tests, MinIO). */
  public static S3Settings compatible(String endpoint, String accessKey, String secretKey) {
    return new S3Settings(
        endpoint,
        "us-east-1",
        true,
        accessKey,
        secretKey,
        MIN_PART_BYTES,
        4,
        Duration.ofSeconds(30),
        Duration.ofMinutes(2),
        true,
        true);
  }

  /** A copy with another part size (tests cross the multipart threshold with small objects). */
  public S3Settings withPartBytes(long bytes) {
    return new S3Settings(
        endpoint,
        region,
        pathStyle,
        accessKey,
        secretKey,
        bytes,
        maxAttempts,
        attemptTimeout,
        callTimeout,
        whenRequiredChecksums,
        conditionalWrites);
  }

  /** A copy without conditional writes (for stores that ignore or reject them). */
  public S3Settings withoutConditionalWrites() {
    return new S3Settings(
        endpoint,
        region,
        pathStyle,
        accessKey,
        secretKey,
        partBytes,
        maxAttempts,
        attemptTimeout,
        callTimeout,
        whenRequiredChecksums,
        false);
  }

  @Override
  public String toString() {
    // never the secret
    return "S3Settings[endpoint="
        + (endpoint.isEmpty() ? "(AWS)" : endpoint)
        + ", region="
        + region
        + ", pathStyle="
        + pathStyle
        + ", credentials="
        + (accessKey.isEmpty() ? "default chain" : "static " + accessKey)
        + "]";
  }
}
