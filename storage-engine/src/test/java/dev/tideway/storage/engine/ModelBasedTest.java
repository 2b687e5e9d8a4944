package dev.tideway.storage.engine;

import dev.tideway.common.random.RandomSource;
import dev.tideway.storage.api.StorageOptions;
import dev.tideway.storage.objectstore.FailingObjectStore;
import dev.tideway.storage.objectstore.InMemoryObjectStore;
import dev.tideway.storage.objectstore.LocalFsObjectStore;
import dev.tideway.storage.objectstore.S3Fixture;
import dev.tideway.storage.objectstore.S3ObjectStore;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store equals a sorted-map model through random writes, epochs, syncs, commits, compactions,
 * pinned reads, reads at random committed epochs and reopens. Replay a failure with {@code
 * -Dtideway.seed=N}; {@code ModelBasedIT} runs longer.
 */
class ModelBasedTest {
  static StorageOptions smallOptions() {
    return StorageOptions.defaults()
        .withMemory(24 << 10, 6 << 10)
        .withCompaction(false, 3, 48 << 10, 16 << 10)
        .withCheckpointEvery(5);
  }

  static void runSeed(long seed, int steps, ModelRunner runner) throws Exception {
    RandomSource rnd = RandomSource.fromPropertyOr(seed);
    ModelCheck check = runner.make(rnd);
    try {
      check.run(steps);
    } catch (Throwable t) {
      throw new AssertionError(
          "model check failed; replay with -Dtideway.seed="
              + rnd.seed()
              + "\nlast steps:\n"
              + check.trace(),
          t);
    }
  }

  interface ModelRunner {
    ModelCheck make(RandomSource rnd) throws Exception;
  }

  @Test
  void inMemoryStoreMatchesModel() throws Exception {
    for (long seed = 1; seed <= 3; seed++) {
      runSeed(
          seed, 400, rnd -> new ModelCheck(rnd, new InMemoryObjectStore(), smallOptions(), 300));
    }
  }

  /**
   * No full compactions and an L1 that never moves down: once L1 outgrows L0 the picker merges L0
   * SSTs among themselves (target level 0, never bottom), and reads, pins and stats must still
   * match the model.
   */
  @Test
  void inMemoryStoreMatchesModelWithL0Merges() throws Exception {
    StorageOptions o = smallOptions().withCompaction(false, 3, 1L << 30, 16 << 10);
    for (long seed = 11; seed <= 13; seed++) {
      runSeed(seed, 500, rnd -> new ModelCheck(rnd, new InMemoryObjectStore(), o, 3000, 0));
    }
  }

  @Test
  void localFileStoreMatchesModelAcrossReopens(@TempDir Path dir) throws Exception {
    runSeed(42, 300, rnd -> new ModelCheck(rnd, new LocalFsObjectStore(dir), smallOptions(), 200));
  }

  @Test
  void s3StoreMatchesModelAcrossReopens(@TempDir Path dir) throws Exception {
    try (S3Fixture s3 = new S3Fixture(dir);
        S3ObjectStore store = s3.open("model")) {
      // each reopen closes its engine, and an engine closes its store: the wrapper keeps the
      // client open across them
      runSeed(
          42, 150, rnd -> new ModelCheck(rnd, new FailingObjectStore(store), smallOptions(), 200));
    }
  }
}
