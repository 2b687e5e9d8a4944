package dev.tideway.storage.engine;

import dev.tideway.storage.objectstore.InMemoryObjectStore;
import dev.tideway.storage.objectstore.LocalFsObjectStore;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The long model-based run: many seeds, longer histories, a wider key space. */
class ModelBasedIT {
  @Test
  void manySeedsInMemory() throws Exception {
    for (long seed = 100; seed < 120; seed++) {
      ModelBasedTest.runSeed(
          seed,
          1500,
          rnd ->
              new ModelCheck(rnd, new InMemoryObjectStore(), ModelBasedTest.smallOptions(), 1000));
    }
  }

  /** Seeds whose L0 merges among itself (no full compactions, an L1 that never moves down). */
  @Test
  void manySeedsWithL0Merges() throws Exception {
    var options = ModelBasedTest.smallOptions().withCompaction(false, 3, 1L << 30, 16 << 10);
    for (long seed = 200; seed < 210; seed++) {
      ModelBasedTest.runSeed(
          seed, 1500, rnd -> new ModelCheck(rnd, new InMemoryObjectStore(), options, 5000, 0));
    }
  }

  @Test
  void longRunOnLocalFiles(@TempDir Path dir) throws Exception {
    ModelBasedTest.runSeed(
        7,
        3000,
        rnd ->
            new ModelCheck(rnd, new LocalFsObjectStore(dir), ModelBasedTest.smallOptions(), 2000));
  }
}
