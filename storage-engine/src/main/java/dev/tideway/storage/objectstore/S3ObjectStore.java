package dev.tideway.storage.objectstore;

import dev.tideway.common.check.Checks;
import dev.tideway.common.fault.FailPoints;
import dev.tideway.common.fault.InjectedFault;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.exception.AbortedException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * The object store on S3 or an S3-compatible store (MinIO, Ceph, s3proxy), under {@code
 * s3://BUCKET/PREFIX}: object {@code p} is key {@code PREFIX/p}.
 *
 * <p>Relies only on what S3 guarantees: a PUT makes an object visible whole (so an upload needs no
 * temporary and no rename), reads and listings are strongly consistent after a write, and a PUT
 * with {@code If-None-Match: *} fails with 412 when the key exists ({@link #putIfAbsent}). An
 * upload is buffered up to one part; a larger one becomes a multipart upload whose parts go out as
 * they fill and which an abort removes. Reads of SST pages are ranged GETs.
 *
 * <p>The SDK retries each request ({@link S3Settings#maxAttempts}, exponential backoff with jitter
 * on 5xx, throttling and I/O errors) within the attempt and call timeouts; what still fails is an
 * {@link ObjectStoreUnavailableException} (the engine's retryable {@code OBJECT_STORE}), a missing
 * object a {@link FileNotFoundException}. Thread-safe: the client is shared.
 */
public final class S3ObjectStore implements ObjectStore {
  /** Every write fails while on (a store that refuses writes for a while). */
  public static final String FP_WRITE = FailPoints.declare("objectstore.s3.write");

  private final S3Client s3;
  private final String bucket;
  private final String prefix;
  private final S3Settings settings;

  private S3ObjectStore(S3Client s3, String bucket, String prefix, S3Settings settings) {
    this.s3 = s3;
    this.bucket = bucket;
    this.prefix = prefix;
    this.settings = settings;
  }

  /**
   * Opens {@code s3://BUCKET[/PREFIX]}; the bucket must exist (checked now, so a wrong name or
   * missing rights fail at start with the reason).
   */
  public static S3ObjectStore open(String url, S3Settings settings) throws IOException {
    URI u = URI.create(url);
    Checks.checkArgument(
        "s3".equals(u.getScheme()) && u.getHost() != null && !u.getHost().isEmpty(),
        "an S3 store URL is s3://BUCKET/PREFIX, got '%s'",
        url);
    String path = u.getPath() == null ? "" : u.getPath().replaceAll("^/+|/+$", "");
    S3ObjectStore store =
        new S3ObjectStore(
            client(settings), u.getHost(), path.isEmpty() ? "" : path + "/", settings);
    try {
      store.call("HEAD bucket", () -> store.s3.headBucket(b -> b.bucket(store.bucket)));
    } catch (IOException e) {
      store.close();
      throw new IOException(
          "cannot open state store " + url + " (" + settings + "): " + e.getMessage(), e);
    }
    return store;
  }

  private static S3Client client(S3Settings s) {
    AwsCredentialsProvider credentials =
        s.accessKey().isEmpty()
            ? DefaultCredentialsProvider.builder().build()
            : StaticCredentialsProvider.create(
                AwsBasicCredentials.create(s.accessKey(), s.secretKey()));
    S3ClientBuilder b =
        S3Client.builder()
            .httpClient(
                UrlConnectionHttpClient.builder()
                    .connectionTimeout(java.time.Duration.ofSeconds(10))
                    .socketTimeout(s.attemptTimeout())
                    .build())
            .region(Region.of(s.region()))
            .credentialsProvider(credentials)
            .forcePathStyle(s.pathStyle())
            .overrideConfiguration(
                ClientOverrideConfiguration.builder()
                    .retryStrategy(
                        AwsRetryStrategy.standardRetryStrategy().toBuilder()
                            .maxAttempts(s.maxAttempts())
                            .build())
                    .apiCallAttemptTimeout(s.attemptTimeout())
                    .apiCallTimeout(s.callTimeout())
                    .build());
    if (s.whenRequiredChecksums()) {
      b.requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
          .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED);
    }
    if (!s.endpoint().isEmpty()) {
      b.endpointOverride(URI.create(s.endpoint()));
    }
    return b.build();
  }

  private String key(String path) {
    Checks.checkArgument(
        !path.isEmpty() && !path.startsWith("/") && !path.contains(".."),
        "object path must be relative without '..', got '%s'",
        path);
    return prefix + path;
  }

  @Override
  public ObjectWriter create(String path) throws IOException {
    checkWritable(path);
    return new S3Writer(path, key(path));
  }

  @Override
  public void put(String path, byte[] bytes) throws IOException {
    checkWritable(path);
    String key = key(path);
    call(
        "PUT " + key,
        () -> s3.putObject(r -> r.bucket(bucket).key(key), RequestBody.fromBytes(bytes)));
  }

  @Override
  public boolean putIfAbsent(String path, byte[] bytes) throws IOException {
    checkWritable(path);
    String key = key(path);
    if (!settings.conditionalWrites()) {
      // the store cannot create conditionally: one writer is left to the fencing above it
      if (exists(path)) {
        return false;
      }
      put(path, bytes);
      return true;
    }
    try {
      call(
          "PUT (if absent) " + key,
          () ->
              s3.putObject(
                  r -> r.bucket(bucket).key(key).ifNoneMatch("*"), RequestBody.fromBytes(bytes)));
      return true;
    } catch (ObjectStoreUnavailableException e) {
      if (e.getCause() instanceof S3Exception s
          && (s.statusCode() == 412 || s.statusCode() == 409)) {
        return false; // 412: it exists; 409: a concurrent conditional write of it is in flight
      }
      throw e;
    }
  }

  private void checkWritable(String path) throws IOException {
    try {
      FailPoints.hit(FP_WRITE);
    } catch (InjectedFault f) {
      throw new ObjectStoreUnavailableException(
          "object store write of " + path + " failed: injected fault", f);
    }
  }

  @Override
  public byte[] read(String path) throws IOException {
    String key = key(path);
    ResponseBytes<GetObjectResponse> r =
        call("GET " + key, () -> s3.getObjectAsBytes(g -> g.bucket(bucket).key(key)));
    return r.asByteArray();
  }

  @Override
  public RandomAccessObject open(String path) throws IOException {
    String key = key(path);
    long length =
        call("HEAD " + key, () -> s3.headObject(h -> h.bucket(bucket).key(key))).contentLength();
    return new RangedObject(path, key, length);
  }

  @Override
  public List<String> list(String p) throws IOException {
    List<String> out = new ArrayList<>();
    String from = prefix + p;
    String token = null;
    do {
      String t = token;
      ListObjectsV2Response page =
          call(
              "LIST " + from,
              () ->
                  s3.listObjectsV2(
                      ListObjectsV2Request.builder()
                          .bucket(bucket)
                          .prefix(from)
                          .continuationToken(t)
                          .build()));
      for (S3Object o : page.contents()) {
        if (!o.key().endsWith("/")) { // a "folder" marker (consoles, some stores), not an object
          out.add(o.key().substring(prefix.length()));
        }
      }
      token = Boolean.TRUE.equals(page.isTruncated()) ? page.nextContinuationToken() : null;
    } while (token != null);
    out.sort(null);
    return out;
  }

  @Override
  public boolean exists(String path) throws IOException {
    String key = key(path);
    try {
      call("HEAD " + key, () -> s3.headObject(h -> h.bucket(bucket).key(key)));
      return true;
    } catch (FileNotFoundException e) {
      return false;
    }
  }

  @Override
  public void delete(String path) throws IOException {
    String key = key(path);
    call("DELETE " + key, () -> s3.deleteObject(d -> d.bucket(bucket).key(key)));
  }

  @Override
  public String describe() {
    return "s3://" + bucket + "/" + prefix;
  }

  @Override
  public void close() {
    s3.close();
  }

  private interface S3Call<T> {
    T run();
  }

  /**
   * Runs one request (the SDK retries it); maps what still fails: a missing object or bucket to
   * {@link FileNotFoundException}, an interrupt to {@link InterruptedIOException}, anything else to
   * {@link ObjectStoreUnavailableException} naming the request.
   */
  private <T> T call(String what, S3Call<T> request) throws IOException {
    try {
      return request.run();
    } catch (NoSuchKeyException e) {
      throw new FileNotFoundException("object " + what + " not found in " + describe());
    } catch (S3Exception e) {
      if (e.statusCode() == 404) {
        throw new FileNotFoundException(
            what + " in " + describe() + ": not found (" + e.awsErrorDetails().errorCode() + ")");
      }
      throw new ObjectStoreUnavailableException(
          what + " in " + describe() + " failed: HTTP " + e.statusCode() + " " + e.getMessage(), e);
    } catch (AbortedException e) {
      InterruptedIOException ie = new InterruptedIOException(what + " was interrupted");
      ie.initCause(e);
      throw ie;
    } catch (SdkException e) {
      if (Thread.currentThread().isInterrupted()) {
        InterruptedIOException ie = new InterruptedIOException(what + " was interrupted");
        ie.initCause(e);
        throw ie;
      }
      throw new ObjectStoreUnavailableException(
          what + " in " + describe() + " failed: " + e.getMessage(), e);
    }
  }

  /**
   * An upload: bytes gather in memory up to one part; past that a multipart upload starts and each
   * full part is sent as it fills, so memory stays at one part whatever the object's size. {@link
   * #commit()} sends the rest (one PUT for a small object); {@link #close()} without a commit
   * aborts the multipart upload, leaving nothing.
   */
  private final class S3Writer extends ObjectWriter {
    private final String path;
    private final String key;
    private final ByteArrayOutputStream part = new ByteArrayOutputStream();
    private final List<CompletedPart> parts = new ArrayList<>();
    private String uploadId;
    private long pos;
    private boolean done;

    /** A request of this upload failed: it can only be closed (aborted), never committed. */
    private IOException failed;

    S3Writer(String path, String key) {
      this.path = path;
      this.key = key;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      Checks.checkState(!done, "upload of %s already finished", path);
      checkNotFailed();
      pos += len;
      while (len > 0) {
        int n = (int) Math.min(len, settings.partBytes() - part.size());
        part.write(b, off, n);
        off += n;
        len -= n;
        if (part.size() >= settings.partBytes()) {
          sendPart();
        }
      }
    }

    private void checkNotFailed() throws IOException {
      if (failed != null) {
        throw new ObjectStoreUnavailableException("upload of " + path + " failed earlier", failed);
      }
    }

    /** Sends the buffered part; on failure the upload is failed (its bytes would be missing). */
    private void sendPart() throws IOException {
      try {
        sendPartOnce();
      } catch (IOException e) {
        failed = e;
        throw e;
      }
    }

    private void sendPartOnce() throws IOException {
      if (uploadId == null) {
        uploadId =
            call(
                    "CREATE MULTIPART " + key,
                    () -> s3.createMultipartUpload(c -> c.bucket(bucket).key(key)))
                .uploadId();
      }
      int number = parts.size() + 1;
      byte[] bytes = part.toByteArray();
      String etag =
          call(
                  "PUT PART " + number + " of " + key,
                  () ->
                      s3.uploadPart(
                          u -> u.bucket(bucket).key(key).uploadId(uploadId).partNumber(number),
                          RequestBody.fromBytes(bytes)))
              .eTag();
      parts.add(CompletedPart.builder().partNumber(number).eTag(etag).build());
      part.reset(); // only once the part is in
    }

    @Override
    public long position() {
      return pos;
    }

    @Override
    public String path() {
      return path;
    }

    @Override
    public void commit() throws IOException {
      Checks.checkState(!done, "upload of %s already finished", path);
      checkNotFailed();
      checkWritable(path);
      if (uploadId == null) {
        byte[] bytes = part.toByteArray();
        call(
            "PUT " + key,
            () -> s3.putObject(r -> r.bucket(bucket).key(key), RequestBody.fromBytes(bytes)));
      } else {
        if (part.size() > 0) {
          sendPart();
        }
        call(
            "COMPLETE MULTIPART " + key,
            () ->
                s3.completeMultipartUpload(
                    c ->
                        c.bucket(bucket)
                            .key(key)
                            .uploadId(uploadId)
                            .multipartUpload(m -> m.parts(parts))));
      }
      done = true;
    }

    @Override
    public void close() throws IOException {
      if (!done) {
        done = true;
        if (uploadId != null) {
          String id = uploadId;
          call(
              "ABORT MULTIPART " + key,
              () -> s3.abortMultipartUpload(a -> a.bucket(bucket).key(key).uploadId(id)));
        }
      }
    }
  }

  /** Ranged GETs of one object; its length is read once at open (objects never change). */
  private final class RangedObject implements RandomAccessObject {
    private final String path;
    private final String key;
    private final long length;

    RangedObject(String path, String key, long length) {
      this.path = path;
      this.key = key;
      this.length = length;
    }

    @Override
    public String path() {
      return path;
    }

    @Override
    public long length() {
      return length;
    }

    @Override
    public void readFully(long position, ByteBuffer dst) throws IOException {
      int n = dst.remaining();
      if (n == 0) {
        return;
      }
      if (position + n > length) {
        throw new EOFException("read past the end of " + path + " at " + position);
      }
      String range = "bytes=" + position + "-" + (position + n - 1);
      byte[] bytes =
          call(
                  "GET " + key + " " + range,
                  () -> s3.getObjectAsBytes(g -> g.bucket(bucket).key(key).range(range)))
              .asByteArray();
      if (bytes.length != n) {
        throw new ObjectStoreUnavailableException(
            "GET " + key + " " + range + " returned " + bytes.length + " bytes, expected " + n,
            null);
      }
      dst.put(bytes);
    }

    @Override
    public void close() {}
  }
}
