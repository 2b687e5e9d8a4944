package dev.tideway.storage.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tideway.common.fault.FailPoints;
import dev.tideway.common.fault.InjectedFault;
import dev.tideway.storage.api.Epochs;
import dev.tideway.storage.api.KeyRange;
import dev.tideway.storage.api.Keys;
import dev.tideway.storage.api.LocalStateStore;
import dev.tideway.storage.api.SstInfo;
import dev.tideway.storage.api.StateIterator;
import dev.tideway.storage.api.StorageException;
import dev.tideway.storage.api.StorageOptions;
import dev.tideway.storage.api.SyncResult;
import dev.tideway.storage.compaction.CompactionRewriter;
import dev.tideway.storage.memtable.SharedBuffer;
import dev.tideway.storage.objectstore.FailingObjectStore;
import dev.tideway.storage.objectstore.InMemoryObjectStore;
import dev.tideway.storage.sst.SstWriter;
import dev.tideway.storage.version.VersionManager;
import dev.tideway.storage.version.VersionStore;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A crash (an injected fault) at any step of sync, commit or compaction leaves the last committed
 * version readable after a reopen, loses nothing committed, and the orphan files are vacuumed.
 */
class FaultTest {
  private final InMemoryObjectStore objects = new InMemoryObjectStore();

  @AfterEach
  void reset() {
    FailPoints.reset();
  }

  static StorageOptions options() {
    return StorageOptions.defaults()
        .withCompaction(false, 2, 1 << 20, 1 << 20)
        .withCheckpointEvery(3);
  }

  static byte[] key(long pk) {
    return Keys.key(1, 0, ByteBuffer.allocate(8).putLong(pk).array());
  }

  /** Writes rows [from, to) with value = epoch number, seals and commits epoch {@code e}. */
  static void commitEpoch(StorageEngine s, long e, int from, int to) throws Exception {
    LocalStateStore l = s.newLocal(1);
    l.init(Epochs.of(e));
    for (int i = from; i < to; i++) {
      l.insert(key(i), ("v" + e).getBytes());
    }
    l.sealCurrentEpoch(Epochs.of(e + 1));
    SyncResult r = s.sync(Epochs.of(e)).get();
    s.commitEpoch(Epochs.of(e), r.ssts(), r.statsDelta());
  }

  static Map<String, String> scan(StorageEngine s) {
    Map<String, String> out = new TreeMap<>();
    try (StateIterator it = s.iter(KeyRange.table(1), s.committedEpoch())) {
      while (it.next()) {
        out.put(Keys.hex(it.key()), new String(it.value()));
      }
    }
    return out;
  }

  @Test
  void aWriterFromBeforeARecoveryClearCannotSealIntoTheClearedBuffer() throws Exception {
    try (StorageEngine s = StorageEngine.open(objects, options())) {
      commitEpoch(s, 1, 0, 10);
      LocalStateStore zombie = s.newLocal(1);
      zombie.init(Epochs.of(2));
      zombie.insert(key(100), "aborted".getBytes());
      s.clearUncommitted(); // the reset of a recovery, while that writer still runs

      assertThatThrownBy(() -> zombie.sealCurrentEpoch(Epochs.of(3)))
          .isInstanceOf(StorageException.class)
          .hasMessageContaining("before a recovery cleared");
      // the rebuilt writer of the new generation writes and commits as usual
      commitEpoch(s, 2, 10, 20);
      assertThat(s.get(key(100), Epochs.of(2))).isNull();
      assertThat(s.get(key(15), Epochs.of(2))).isEqualTo("v2".getBytes());
      assertThat(s.tableStats().get(1).liveRowCount()).isEqualTo(20);
    }
  }

  /**
   * A commit whose delta was persisted but whose outcome the owner never learned (here: a fault
   * right after the write) stops the version manager: committing on a guess could skip or repeat
   * the delta. A refresh settles it from the store (what a new meta term does first), and the same
   * open store commits again, the settled epoch included; before, only a reopen could.
   */
  @Test
  void aRefreshSettlesAnUnknownCommitOutcomeAndCommitsResumeWithoutAReopen() throws Exception {
    try (StorageEngine s = StorageEngine.open(objects, options())) {
      commitEpoch(s, 1, 0, 10);
      FailPoints.enable(VersionManager.FP_AFTER_PERSIST, new FailPoints.Fail());
      assertThatThrownBy(() -> commitEpoch(s, 2, 10, 20)).isInstanceOf(InjectedFault.class);
      FailPoints.reset();
      assertThat(s.committedEpoch()).as("the outcome is unknown in memory").isEqualTo(Epochs.of(1));
      assertThatThrownBy(() -> commitEpoch(s, 3, 20, 30))
          .isInstanceOf(StorageException.class)
          .hasMessageContaining("unresolved commit outcome");

      assertThat(s.refresh(0)).as("the persisted delta, settled").isEqualTo(Epochs.of(2));
      commitEpoch(s, 4, 30, 40);
      assertThat(s.committedEpoch()).isEqualTo(Epochs.of(4));
      assertThat(s.get(key(15), Epochs.of(4))).isEqualTo("v2".getBytes());
      assertThat(s.get(key(35), Epochs.of(4))).isEqualTo("v4".getBytes());
    }
    try (StorageEngine reopened = StorageEngine.open(objects, options())) {
      assertThat(reopened.committedEpoch()).isEqualTo(Epochs.of(4));
      assertThat(scan(reopened)).hasSize(30); // epochs 1, 2 and 4; 3 never committed
    }
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "storage.sync.before-upload",
        "storage.sync.after-upload",
        "sst.write.before-commit",
        "version.commit.before-persist",
        "version.commit.after-persist",
        "version.checkpoint.before-write",
        "version.checkpoint.after-write",
        "compaction.before-write",
        "compaction.after-write"
      })
  void crashAtAnyStepKeepsTheLastCommittedVersion(String point) throws Exception {
    StorageEngine s = StorageEngine.open(objects, options());
    commitEpoch(s, 1, 0, 100);
    commitEpoch(s, 2, 50, 150);
    Map<String, String> before = scan(s);
    long committedBefore = s.committedEpoch();
    FailPoints.enable(point, new FailPoints.Fail());
    boolean committed;
    try {
      commitEpoch(s, 3, 100, 200);
      s.compactNow(true);
      committed = true;
    } catch (InjectedFault | ExecutionException | StorageException e) {
      committed = false;
    }
    FailPoints.reset();
    s.close();
    StorageEngine reopened = StorageEngine.open(objects, options());
    if (reopened.committedEpoch() == committedBefore) {
      assertThat(scan(reopened)).isEqualTo(before);
    } else {
      assertThat(reopened.committedEpoch()).isEqualTo(Epochs.of(3));
      assertThat(scan(reopened)).hasSize(200);
    }
    assertThat(
            committed
                || point.startsWith("compaction")
                || point.startsWith("version.checkpoint")
                || reopened.committedEpoch() == committedBefore
                || point.equals("version.commit.after-persist"))
        .isTrue();
    // Every SST object left is referenced by the version: orphans were vacuumed at open.
    assertThat(objects.list("sst/").stream().map(SstInfo::idOfPath).sorted().toList())
        .containsExactlyInAnyOrderElementsOf(reopened.version().sstIds());
    // And the store still works.
    commitEpoch(reopened, 10, 0, 10);
    assertThat(scan(reopened)).containsEntry(Keys.hex(key(5)), "v10");
    reopened.close();
  }

  @ParameterizedTest
  @ValueSource(strings = {"COMMIT", "COMMIT_AFTER", "WRITE"})
  void objectStoreFailuresDuringCommitNeverLoseCommittedData(String op) throws Exception {
    FailingObjectStore failing = new FailingObjectStore(objects);
    StorageEngine s = StorageEngine.open(failing, options());
    commitEpoch(s, 1, 0, 100);
    Map<String, String> before = scan(s);
    failing.fail(FailingObjectStore.Operation.valueOf(op), VersionStore.DELTA_PREFIX, 1);
    try {
      commitEpoch(s, 2, 100, 120);
    } catch (InjectedFault | StorageException e) {
      // The outcome of a failed commit is decided by what the store holds.
    }
    failing.heal();
    s.close();
    StorageEngine reopened = StorageEngine.open(objects, options());
    if (op.equals("COMMIT_AFTER")) {
      // The delta landed although the call failed: reconciled as committed.
      assertThat(reopened.committedEpoch()).isEqualTo(Epochs.of(2));
      assertThat(scan(reopened)).hasSize(120);
    } else {
      assertThat(reopened.committedEpoch()).isEqualTo(Epochs.of(1));
      assertThat(scan(reopened)).isEqualTo(before);
    }
    reopened.close();
  }

  @ParameterizedTest
  @ValueSource(strings = {"READ"})
  void sstReadFailuresSurfaceAsErrorsNotWrongData(String op) throws Exception {
    FailingObjectStore failing = new FailingObjectStore(objects);
    StorageEngine s = StorageEngine.open(failing, options());
    commitEpoch(s, 1, 0, 100);
    s.close();
    StorageEngine reopened = StorageEngine.open(failing, options());
    failing.fail(FailingObjectStore.Operation.valueOf(op), "sst/", 0);
    assertThatThrownBy(() -> scan(reopened)).isInstanceOf(InjectedFault.class);
    failing.heal();
    assertThat(scan(reopened)).hasSize(100);
    reopened.close();
  }

  static {
    // Touch the classes declaring the fail points so their names are registered.
    String[] declared = {
      SharedBuffer.FP_SYNC_BEFORE_UPLOAD,
      SstWriter.FP_BEFORE_COMMIT,
      VersionManager.FP_BEFORE_PERSIST,
      VersionStore.FP_BEFORE_CHECKPOINT,
      CompactionRewriter.FP_BEFORE_WRITE
    };
  }
}
