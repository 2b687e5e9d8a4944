package dev.tideway.it.arch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Keeps the house the size it is: no production source file grows past {@link #MAX_LINES} lines,
 * and the files already past it (frozen below at their size when this rule came in) may only
 * shrink. A file that must grow is split along its seams instead; when an outlier shrinks, lower
 * its entry so it cannot grow back.
 */
class SourceSizeTest {
  static final int MAX_LINES = 500;

  /** Today's outliers, each at most its size when the rule came in. */
  private static final Map<String, Integer> FROZEN =
      Map.ofEntries(
          Map.entry(
              "storage-engine/src/main/java/dev/tideway/storage/engine/StorageEngine.java", 866),
          Map.entry(
              "meta-service/src/main/java/dev/tideway/meta/barrier/GlobalBarrierManager.java", 819),
          Map.entry("frontend/src/main/java/dev/tideway/frontend/plan/StreamPlanBuilder.java", 814),
          Map.entry(
              "compute-node/src/main/java/dev/tideway/compute/executor/HashAggExecutor.java", 784),
          Map.entry("compute-node/src/main/java/dev/tideway/compute/node/ComputeControl.java", 683),
          Map.entry("storage-engine/src/main/java/dev/tideway/storage/sst/SstReader.java", 652),
          Map.entry("common/src/main/java/dev/tideway/common/plan/StreamNode.java", 676),
          Map.entry("frontend/src/main/java/dev/tideway/frontend/session/DmlRunner.java", 665),
          Map.entry("frontend/src/main/java/dev/tideway/frontend/pgwire/PgConnection.java", 522),
          Map.entry("frontend/src/main/java/dev/tideway/frontend/session/Session.java", 564),
          Map.entry(
              "compute-node/src/main/java/dev/tideway/compute/executor/HashJoinExecutor.java", 585),
          Map.entry("cli/src/main/java/dev/tideway/cli/chaos/Chaos.java", 535));

  @Test
  void noProductionFileGrowsPastItsLimit() throws IOException {
    Path root = Path.of("..").toAbsolutePath().normalize();
    List<String> tooLong = new ArrayList<>();
    int seen = 0;
    try (Stream<Path> files = Files.walk(root)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        String rel = root.relativize(f).toString().replace('\\', '/');
        if (!rel.endsWith(".java")
            || !rel.contains("/src/main/java/")
            || rel.contains("/target/")) {
          continue;
        }
        seen++;
        long lines;
        try (Stream<String> l = Files.lines(f)) {
          lines = l.count();
        }
        int limit = FROZEN.getOrDefault(rel, MAX_LINES);
        if (lines > limit) {
          tooLong.add(rel + ": " + lines + " lines, limit " + limit);
        }
      }
    }
    assertThat(seen).as("production sources found under %s", root).isGreaterThan(300);
    assertThat(tooLong).as("split these along their seams").isEmpty();
  }

  @Test
  void everyFrozenOutlierStillExists() {
    Path root = Path.of("..").toAbsolutePath().normalize();
    for (String rel : FROZEN.keySet()) {
      assertThat(root.resolve(rel)).as("a frozen outlier that moved: update its entry").exists();
    }
  }
}
