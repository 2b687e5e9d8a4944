package dev.tideway.barrier;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The barrier module stays pure logic: no Pekko, Curator or Parquet, no direct clock, sleep, thread
 * or randomness calls (they come from {@code common}'s seams), so the simulation covers everything.
 */
class BarrierIsPureLogicTest {
  private static final List<String> BANNED =
      List.of(
          "org.apache.pekko",
          "org.apache.curator",
          "org.apache.parquet",
          "org.apache.zookeeper",
          "System.currentTimeMillis",
          "System.nanoTime",
          "Thread.sleep",
          "new Random(",
          "Math.random",
          "ThreadLocalRandom",
          "Executors.",
          "new Thread(",
          "synchronized");

  @Test
  void mainSourcesUseNoBannedApi() throws IOException {
    List<String> violations = new ArrayList<>();
    try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
      for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
        List<String> lines = Files.readAllLines(f);
        for (int i = 0; i < lines.size(); i++) {
          for (String banned : BANNED) {
            if (lines.get(i).contains(banned)) {
              violations.add(f + ":" + (i + 1) + " uses " + banned);
            }
          }
        }
      }
    }
    assertThat(violations).isEmpty();
  }
}
