package dev.tideway.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.cli.cluster.Playground;
import dev.tideway.cli.fuzz.Fuzz;
import dev.tideway.common.time.Clock;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The differential fuzzer's short run in CI: random views over two tables with NULLs and edge
 * values, random inserts, updates and deletes, and every view compared with its query run in batch
 * after each step; no difference and no recovery allowed. The seeds are fixed so that a failure
 * replays (the fuzzer found, among others, a bigint modulus narrowed to int, 0 and 0.000 or -0.0
 * and 0.0 as two group keys, a float divided by zero answering Infinity in batch); {@code tideway
 * fuzz --minutes N} runs longer.
 */
class FuzzIT {
  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(longs = {2, 6})
  void everyViewEqualsItsBatchQueryAfterEveryStep(long seed) throws Exception {
    int http = TestPorts.free();
    Playground.Options o =
        new Playground.Options(dir, "127.0.0.1", 0, http, TestPorts.free(), TestPorts.free(), 200);
    try (Playground p = Playground.start(o, Clock.system());
        Connection c = PlaygroundIT.connect(p)) {
      Fuzz.Report r =
          new Fuzz(
                  new Fuzz.Options(seed, Duration.ofMinutes(2), 60, 6),
                  c,
                  http,
                  new PrintStream(OutputStream.nullOutputStream()),
                  Clock.system())
              .run();
      ByteArrayOutputStream text = new ByteArrayOutputStream();
      r.print(new PrintStream(text, true, StandardCharsets.UTF_8));
      assertThat(r.differences()).as(text.toString(StandardCharsets.UTF_8)).isEmpty();
      assertThat(r.recoveries()).isZero();
      assertThat(r.comparisons()).as("views compared").isGreaterThan(40);
    }
  }
}
