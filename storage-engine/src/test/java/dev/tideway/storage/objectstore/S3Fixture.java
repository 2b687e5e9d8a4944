package dev.tideway.storage.objectstore;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Path;
import java.util.Properties;
import java.util.UUID;
import org.gaul.s3proxy.AuthenticationType;
import org.gaul.s3proxy.S3Proxy;
import org.jclouds.ContextBuilder;
import org.jclouds.blobstore.BlobStoreContext;

/**
 * A real S3-compatible server in this JVM: s3proxy over jclouds' filesystem blob store in {@code
 * dir}, on a free loopback port, with V4 signatures and one bucket. s3proxy ignores {@code
 * If-None-Match} (conditional creates), so {@link #settings()} turns them off; the race they close
 * is tested on the stores that honour it.
 */
public final class S3Fixture implements AutoCloseable {
  public static final String ACCESS = "tideway-access";
  public static final String SECRET = "tideway-secret";

  private final BlobStoreContext context;
  private final S3Proxy proxy;
  private final String endpoint;
  private final String bucket = "tideway-" + UUID.randomUUID().toString().substring(0, 8);

  public S3Fixture(Path dir) throws Exception {
    Properties p = new Properties();
    p.setProperty("jclouds.filesystem.basedir", dir.toString());
    context =
        ContextBuilder.newBuilder("filesystem")
            .overrides(p)
            .credentials("unused", "unused")
            .build(BlobStoreContext.class);
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    endpoint = "http://127.0.0.1:" + port;
    proxy =
        S3Proxy.builder()
            .blobStore(context.getBlobStore())
            .endpoint(URI.create(endpoint))
            .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS, SECRET)
            .build();
    try {
      proxy.start();
      long deadline = System.nanoTime() + 30_000_000_000L;
      while (!"STARTED".equals(proxy.getState())) {
        if (System.nanoTime() > deadline) {
          throw new IOException("s3proxy did not start: " + proxy.getState());
        }
        Thread.sleep(5);
      }
      context.getBlobStore().createContainerInLocation(null, bucket);
    } catch (Exception e) {
      close();
      throw e;
    }
  }

  public String endpoint() {
    return endpoint;
  }

  public String bucket() {
    return bucket;
  }

  /** {@code s3://bucket/prefix}. */
  public String url(String prefix) {
    return "s3://" + bucket + "/" + prefix;
  }

  /** Path-style, static credentials, checksums only where required, no conditional creates. */
  public S3Settings settings() {
    return S3Settings.compatible(endpoint, ACCESS, SECRET).withoutConditionalWrites();
  }

  /** The environment a separate process needs to open {@link #url} (the config's twins). */
  public java.util.Map<String, String> environment() {
    return java.util.Map.of(
        "TIDEWAY_STORAGE_S3_ENDPOINT",
        endpoint,
        "TIDEWAY_STORAGE_S3_PATH_STYLE",
        "true",
        "TIDEWAY_STORAGE_S3_ACCESS_KEY",
        ACCESS,
        "TIDEWAY_STORAGE_S3_SECRET_KEY",
        SECRET,
        "TIDEWAY_STORAGE_S3_CHECKSUMS",
        "when-required",
        "TIDEWAY_STORAGE_S3_CONDITIONAL_WRITES",
        "false");
  }

  /**
   * Runs the server until killed, for trying a cluster or {@code tideway bench storage --store} on
   * S3 by hand: {@code java -cp <storage-engine test class path> ...S3Fixture DIR} prints the
   * bucket and the environment the processes need.
   */
  public static void main(String[] args) throws Exception {
    S3Fixture s3 = new S3Fixture(Path.of(args.length > 0 ? args[0] : "s3-data"));
    System.out.println("bucket " + s3.bucket() + ": use --store " + s3.url("tideway"));
    s3.environment().forEach((k, v) -> System.out.println("export " + k + "=" + v));
    Thread.currentThread().join();
  }

  public S3ObjectStore open(String prefix) throws IOException {
    return S3ObjectStore.open(url(prefix), settings());
  }

  /** Stops the server (Jetty's threads are not daemons); idempotent. */
  @Override
  public void close() {
    try {
      proxy.stop();
    } catch (Exception e) {
      throw new IllegalStateException("s3proxy did not stop", e);
    } finally {
      context.close();
    }
  }
}
