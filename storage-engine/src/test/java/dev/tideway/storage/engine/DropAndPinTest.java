package dev.tideway.storage.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.storage.api.CompactionJob;
import dev.tideway.storage.api.Epochs;
import dev.tideway.storage.api.KeyRange;
import dev.tideway.storage.api.Keys;
import dev.tideway.storage.api.LocalStateStore;
import dev.tideway.storage.api.SstInfo;
import dev.tideway.storage.api.StateIterator;
import dev.tideway.storage.api.StateStores;
import dev.tideway.storage.api.Storage;
import dev.tideway.storage.api.StorageOptions;
import dev.tideway.storage.api.StorageRole;
import dev.tideway.storage.api.SyncResult;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Dropped tables leave the store, and a follower's running read keeps its files: the version owner
 * and a compute node (follower) share one directory, as separate processes would.
 */
class DropAndPinTest {
  @TempDir Path dir;

  static final int KEEP = 7;
  static final int TABLE = 8;
  static final int STATE = 9;

  private static byte[] key(int table, long pk) {
    return Keys.key(table, (int) (pk % 256), ByteBuffer.allocate(8).putLong(pk).array());
  }

  private Storage open(StorageRole role) {
    return StateStores.open(
        dir.toUri().toString(),
        StorageOptions.defaults()
            .withCheckpointEvery(4)
            .withCompaction(false, 100, 1L << 30, 64L << 20),
        role);
  }

  /** Every table gets {@code n} rows at epoch {@code e}; the owner commits them. */
  private static void checkpoint(
      List<LocalStateStore> locals, Storage node, Storage owner, long e, long from, long n)
      throws Exception {
    for (LocalStateStore l : locals) {
      for (long pk = from; pk < from + n; pk++) {
        l.insert(key(l.tableId(), pk), ("v" + l.tableId() + "-" + pk).getBytes());
      }
      l.sealCurrentEpoch(Epochs.of(e + 1));
    }
    SyncResult r = node.sync(Epochs.of(e)).get();
    owner.commitEpoch(Epochs.of(e), r.ssts(), r.statsDelta());
    node.refresh(Epochs.of(e));
  }

  /** Runs every compaction the owner picks on the node and applies it. */
  private static int compactAll(Storage owner, Storage node, boolean full) throws Exception {
    int n = 0;
    Optional<CompactionJob> t;
    while ((t = owner.pickCompaction(owner.committedEpoch(), full)).isPresent()) {
      assertThat(owner.applyCompaction(node.compact(t.get()).get())).isTrue();
      n++;
      if (full) {
        break;
      }
    }
    node.refresh(0);
    return n;
  }

  private Set<Long> sstFilesOnDisk() throws Exception {
    Set<Long> ids = new HashSet<>();
    try (Stream<Path> files = Files.walk(dir.resolve("sst"))) {
      files
          .filter(Files::isRegularFile)
          .forEach(p -> ids.add(SstInfo.idOfPath("sst/" + p.getFileName())));
    }
    return ids;
  }

  private long bytesOnDisk() throws Exception {
    try (Stream<Path> files = Files.walk(dir.resolve("sst"))) {
      return files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
    }
  }

  private static long count(Storage s, int table, long epoch) {
    long n = 0;
    try (StateIterator it = s.iter(KeyRange.table(table), epoch)) {
      while (it.next()) {
        assertThat(new String(it.value())).startsWith("v" + table + "-");
        n++;
      }
    }
    return n;
  }

  @Test
  void droppedTablesLeaveTheVersionTheStatsAndTheDisk() throws Exception {
    try (Storage owner = open(StorageRole.versionOwner());
        Storage node = open(StorageRole.follower(1))) {
      List<LocalStateStore> locals =
          List.of(node.newLocal(KEEP), node.newLocal(TABLE), node.newLocal(STATE));
      locals.forEach(l -> l.init(Epochs.of(1)));
      for (int e = 1; e <= 4; e++) {
        checkpoint(locals, node, owner, e, e * 100L, 50);
      }
      compactAll(owner, node, true); // shared SSTs in the bottom level
      for (int e = 5; e <= 6; e++) {
        checkpoint(locals, node, owner, e, e * 100L, 50); // and in L0
      }
      locals.get(1).close();
      locals.get(2).close();
      assertThat(owner.tableStats()).containsKeys(KEEP, TABLE, STATE);
      long filesBefore = sstFilesOnDisk().size();
      long bytesBefore = bytesOnDisk();

      owner.dropTables(List.of(TABLE, STATE));
      assertThat(owner.tableStats()).containsOnlyKeys(KEEP);
      assertThat(owner.droppedTables()).containsExactlyInAnyOrder(TABLE, STATE);
      int cleanups = compactAll(owner, node, false);
      assertThat(cleanups).as("cleanup compactions").isPositive();
      int deleted = owner.deleteSsts(owner.unreferencedSsts());

      StorageEngine engine = (StorageEngine) owner;
      for (SstInfo s : engine.version().allSsts()) {
        assertThat(s.tableStats()).as("%s", s).containsOnlyKeys(KEEP);
      }
      assertThat(sstFilesOnDisk()).isEqualTo(engine.version().sstIds());
      System.out.printf(
          "drop: %d cleanup compactions; vacuum deleted %d SSTs; files %d -> %d, bytes %d -> %d%n",
          cleanups, deleted, filesBefore, sstFilesOnDisk().size(), bytesBefore, bytesOnDisk());
      long e = owner.committedEpoch();
      assertThat(count(node, KEEP, e)).isEqualTo(6 * 50);
      assertThat(count(node, TABLE, e)).isZero();
      assertThat(owner.tableStats().get(KEEP).totalKeyCount()).isEqualTo(6 * 50);
    }
    try (Storage reopened = open(StorageRole.versionOwner())) {
      assertThat(reopened.droppedTables()).containsExactlyInAnyOrder(TABLE, STATE);
      assertThat(reopened.tableStats()).containsOnlyKeys(KEEP);
    }
  }

  @Test
  void aFollowersRunningReadKeepsItsFilesThroughCompactionAndVacuum() throws Exception {
    try (Storage owner = open(StorageRole.versionOwner());
        Storage node = open(StorageRole.follower(1));
        Storage frontend = open(StorageRole.follower(2))) {
      List<LocalStateStore> locals = List.of(node.newLocal(KEEP));
      locals.get(0).init(Epochs.of(1));
      for (int e = 1; e <= 3; e++) {
        checkpoint(locals, node, owner, e, e * 1000L, 400);
      }
      frontend.refresh(Epochs.of(3));
      Set<Long> readFiles = ((StorageEngine) frontend).version().sstIds();
      long e = frontend.committedEpoch();
      long seen = 0;
      try (StateIterator it = frontend.iter(KeyRange.table(KEEP), e)) {
        for (int i = 0; i < 100 && it.next(); i++) {
          seen++;
        }
        ((StorageEngine) frontend).publishPins();

        // meanwhile: more writes, a full compaction, a vacuum without grace
        checkpoint(locals, node, owner, 4, 4000L, 400);
        assertThat(compactAll(owner, node, true)).isEqualTo(1);
        assertThat(owner.pickCompaction(owner.committedEpoch(), true).orElseThrow().safeEpoch())
            .as("the safe epoch stays at the pinned read epoch")
            .isEqualTo(e);
        owner.deleteSsts(owner.unreferencedSsts());
        assertThat(sstFilesOnDisk()).as("the running read's files").containsAll(readFiles);

        while (it.next()) {
          assertThat(new String(it.value())).startsWith("v" + KEEP + "-");
          seen++;
        }
      }
      assertThat(seen).isEqualTo(3 * 400);

      ((StorageEngine) frontend).publishPins(); // nothing pinned any more
      int deleted = owner.deleteSsts(owner.unreferencedSsts());
      assertThat(deleted).isGreaterThanOrEqualTo(readFiles.size());
      assertThat(sstFilesOnDisk()).doesNotContainAnyElementsOf(readFiles);
      assertThat(count(frontend, KEEP, frontend.refresh(0))).isEqualTo(4 * 400);
    }
  }
}
