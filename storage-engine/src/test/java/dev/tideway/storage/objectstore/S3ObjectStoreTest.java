package dev.tideway.storage.objectstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The object store contract on a real S3-compatible server (s3proxy in this JVM): whole objects
 * visible only at commit, multipart uploads that abort to nothing, ranged reads, listings under a
 * prefix that other prefixes never leak into, and failures classified as the engine expects.
 */
class S3ObjectStoreTest {
  @TempDir static Path dir;
  static S3Fixture s3;

  @BeforeAll
  static void start() throws Exception {
    s3 = new S3Fixture(dir);
  }

  @AfterAll
  static void stop() {
    s3.close();
  }

  @Test
  void objectsRoundTripAndListUnderTheirPrefixOnly() throws Exception {
    try (S3ObjectStore a = s3.open("cluster-a");
        S3ObjectStore b = s3.open("cluster-b/")) {
      a.put("version/delta/00000000000000000002", new byte[] {2});
      a.put("version/delta/00000000000000000001", new byte[] {1});
      a.put("sst/7.parquet", "seven".getBytes());
      b.put("sst/8.parquet", "eight".getBytes());

      assertThat(a.list("version/delta/"))
          .containsExactly(
              "version/delta/00000000000000000001", "version/delta/00000000000000000002");
      assertThat(a.list("")).hasSize(3).doesNotContain("sst/8.parquet");
      assertThat(b.list("sst/")).containsExactly("sst/8.parquet");
      assertThat(a.read("sst/7.parquet")).isEqualTo("seven".getBytes());
      assertThat(a.exists("sst/7.parquet")).isTrue();
      assertThat(a.exists("sst/8.parquet")).isFalse();

      a.delete("sst/7.parquet");
      a.delete("sst/7.parquet"); // absent: not an error
      assertThat(a.exists("sst/7.parquet")).isFalse();
      assertThatThrownBy(() -> a.read("sst/7.parquet"))
          .isInstanceOf(FileNotFoundException.class)
          .hasMessageContaining("sst/7.parquet");
      assertThat(a.describe()).isEqualTo(s3.url("cluster-a/"));
    }
  }

  @Test
  void anUploadIsInvisibleUntilCommitAndAnAbortedOneLeavesNothing() throws Exception {
    try (S3ObjectStore store = s3.open("uploads")) {
      byte[] big = new byte[(int) (S3Settings.MIN_PART_BYTES * 2 + 12345)];
      new Random(7).nextBytes(big);
      try (ObjectWriter w = store.create("sst/1.parquet")) {
        for (int off = 0; off < big.length; off += 100_000) {
          w.write(big, off, Math.min(100_000, big.length - off));
        }
        assertThat(store.exists("sst/1.parquet")).as("parts sent, not committed").isFalse();
        assertThat(w.position()).isEqualTo(big.length);
        w.commit();
      }
      assertThat(store.read("sst/1.parquet")).isEqualTo(big);

      try (ObjectWriter w = store.create("sst/2.parquet")) {
        w.write(big); // three parts: a multipart upload is in flight
      } // closed without commit: aborted
      assertThat(store.exists("sst/2.parquet")).isFalse();
      assertThat(store.list("sst/")).containsExactly("sst/1.parquet");

      try (ObjectWriter w = store.create("sst/3.parquet")) {
        w.write(new byte[] {1, 2, 3}); // one PUT at commit
        w.commit();
      }
      assertThat(store.read("sst/3.parquet")).containsExactly(1, 2, 3);
    }
  }

  @Test
  void rangedReadsReturnTheBytesAskedFor() throws Exception {
    try (S3ObjectStore store = s3.open("ranged")) {
      byte[] data = new byte[100_000];
      new Random(11).nextBytes(data);
      store.put("sst/9.parquet", data);
      try (RandomAccessObject o = store.open("sst/9.parquet")) {
        assertThat(o.length()).isEqualTo(data.length);
        ByteBuffer tail = ByteBuffer.allocate(10);
        o.readFully(data.length - 10, tail);
        assertThat(tail.array()).isEqualTo(java.util.Arrays.copyOfRange(data, 99_990, 100_000));
        ByteBuffer mid = ByteBuffer.allocate(4096);
        mid.position(96); // fills from the buffer's position
        o.readFully(5000, mid);
        assertThat(java.util.Arrays.copyOfRange(mid.array(), 96, 4096))
            .isEqualTo(java.util.Arrays.copyOfRange(data, 5000, 5000 + 4000));
        assertThatThrownBy(() -> o.readFully(data.length - 5, ByteBuffer.allocate(10)))
            .isInstanceOf(java.io.EOFException.class);
      }
      assertThatThrownBy(() -> store.open("sst/10.parquet"))
          .isInstanceOf(FileNotFoundException.class);
    }
  }

  @Test
  void withoutConditionalWritesPutIfAbsentStillRefusesAnExistingObject() throws Exception {
    try (S3ObjectStore store = s3.open("conditional")) {
      assertThat(store.putIfAbsent("version/delta/1", new byte[] {1})).isTrue();
      assertThat(store.putIfAbsent("version/delta/1", new byte[] {2})).isFalse();
      assertThat(store.read("version/delta/1")).containsExactly(1);
    }
  }

  @Test
  void aMissingBucketFailsAtOpenNamingTheStore() {
    assertThatThrownBy(() -> S3ObjectStore.open("s3://no-such-bucket/x", s3.settings()))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("s3://no-such-bucket/x");
  }

  @Test
  void anUnreachableStoreIsUnavailableNotCorrupted() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort(); // closed: nothing listens there
    }
    S3Settings down =
        new S3Settings(
            "http://127.0.0.1:" + port,
            "us-east-1",
            true,
            "a",
            "b",
            S3Settings.MIN_PART_BYTES,
            2,
            Duration.ofSeconds(2),
            Duration.ofSeconds(5),
            true,
            false);
    List<Throwable> failures = new ArrayList<>();
    try {
      S3ObjectStore.open("s3://bucket/p", down);
    } catch (IOException e) {
      failures.add(e);
    }
    assertThat(failures).hasSize(1);
    assertThat(ObjectStoreUnavailableException.in(failures.get(0))).isTrue();
    assertThat(failures.get(0)).hasMessageContaining("s3://bucket/p");
  }

  @Test
  void settingsRefuseHalfCredentialsAndTinyParts() {
    assertThatThrownBy(
            () ->
                new S3Settings(
                    "",
                    "us-east-1",
                    false,
                    "key",
                    "",
                    S3Settings.MIN_PART_BYTES,
                    3,
                    Duration.ofSeconds(1),
                    Duration.ofSeconds(1),
                    false,
                    true))
        .hasMessageContaining("access-key and secret-key go together");
    assertThatThrownBy(() -> s3.settings().withPartBytes(1 << 20))
        .hasMessageContaining("at least 5MiB");
    assertThat(s3.settings().toString()).doesNotContain(S3Fixture.SECRET);
  }
}
