package dev.tideway.storage.engine;

import dev.tideway.storage.api.StateStores;
import dev.tideway.storage.api.Storage;
import dev.tideway.storage.api.StorageRole;
import dev.tideway.storage.objectstore.S3Fixture;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link MultiProcessStorageTest}'s processes on S3 (s3proxy in this JVM) instead of a shared
 * directory: the version log, catch-up across pruned deltas, disjoint SST ids, remote compaction
 * and vacuum rely on nothing S3 lacks (no rename, no append).
 */
class MultiProcessStorageOnS3Test extends MultiProcessStorageTest {
  @TempDir static java.nio.file.Path s3dir;
  static S3Fixture s3;
  private String prefix;

  @BeforeAll
  static void startS3() throws Exception {
    s3 = new S3Fixture(s3dir);
  }

  @AfterAll
  static void stopS3() {
    s3.close();
  }

  @BeforeEach
  void newPrefix() {
    prefix = "cluster-" + UUID.randomUUID();
  }

  @Override
  Storage open(StorageRole role) {
    return StateStores.open(s3.url(prefix), options(), role, s3.settings());
  }

  @Override
  void deleteObject(String path) throws Exception {
    try (var store = s3.open(prefix)) {
      store.delete(path);
    }
  }
}
