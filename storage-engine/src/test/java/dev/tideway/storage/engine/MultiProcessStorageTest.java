package dev.tideway.storage.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tideway.storage.api.CompactionJob;
import dev.tideway.storage.api.CompactionOutcome;
import dev.tideway.storage.api.Epochs;
import dev.tideway.storage.api.Keys;
import dev.tideway.storage.api.LocalStateStore;
import dev.tideway.storage.api.SstInfo;
import dev.tideway.storage.api.StateStores;
import dev.tideway.storage.api.Storage;
import dev.tideway.storage.api.StorageException;
import dev.tideway.storage.api.StorageOptions;
import dev.tideway.storage.api.StorageRole;
import dev.tideway.storage.api.SyncResult;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several processes on one object store: compute nodes (followers) write SSTs, the meta leader (the
 * version owner) commits them, and every follower sees the committed data after {@code refresh}.
 * Each instance here stands for a separate process: they share nothing but the directory.
 */
class MultiProcessStorageTest {
  @TempDir Path dir;

  private static final int TABLE = 9;

  private static byte[] key(long pk) {
    return Keys.key(TABLE, (int) (pk % 256), ByteBuffer.allocate(8).putLong(pk).array());
  }

  static StorageOptions options() {
    return StorageOptions.defaults().withCheckpointEvery(3);
  }

  /** Opens the shared store as a process with {@code role} would. */
  Storage open(StorageRole role) throws Exception {
    return StateStores.open(dir.toUri().toString(), options(), role);
  }

  /** Deletes one object behind the processes' backs (as another process's vacuum would). */
  void deleteObject(String path) throws Exception {
    java.nio.file.Files.delete(dir.resolve(path));
  }

  /** Writes rows {@code [from, to)} at epoch {@code e}, seals, syncs; returns the sync result. */
  private static SyncResult write(LocalStateStore l, Storage s, long e, long from, long to)
      throws Exception {
    for (long pk = from; pk < to; pk++) {
      l.insert(key(pk), ("v" + pk).getBytes());
    }
    l.sealCurrentEpoch(Epochs.of(e + 1));
    return s.sync(Epochs.of(e)).get();
  }

  @Test
  void aFollowerReadsWhatTheOwnerCommittedAfterRefresh() throws Exception {
    try (Storage meta = open(StorageRole.versionOwner());
        Storage compute = open(StorageRole.follower(1))) {
      LocalStateStore l = compute.newLocal(TABLE);
      l.init(Epochs.of(1));
      SyncResult r = write(l, compute, 1, 0, 100);
      assertThat(compute.committedEpoch()).isZero();

      meta.commitEpoch(Epochs.of(1), r.ssts(), r.statsDelta());
      assertThatThrownBy(() -> compute.get(key(5), Epochs.of(1)))
          .isInstanceOf(StorageException.class)
          .hasMessageContaining("outside");

      assertThat(compute.refresh(Epochs.of(1))).isEqualTo(Epochs.of(1));
      assertThat(compute.get(key(5), Epochs.of(1))).isEqualTo("v5".getBytes());
      assertThat(compute.tableStats().get(TABLE).totalKeyCount()).isEqualTo(100);

      // A frontend opened later (its own process) sees it at once and after the next commit.
      try (Storage frontend = open(StorageRole.follower(2))) {
        assertThat(frontend.get(key(99), Epochs.of(1))).isEqualTo("v99".getBytes());
        SyncResult r2 = write(l, compute, 2, 100, 150);
        meta.commitEpoch(Epochs.of(2), r2.ssts(), r2.statsDelta());
        frontend.refresh(Epochs.of(2));
        assertThat(frontend.get(key(120), Epochs.of(2))).isEqualTo("v120".getBytes());
        assertThat(frontend.get(key(120), Epochs.of(1))).isNull();
      }
    }
  }

  /**
   * One version owner at a time is the meta leader's rule; the store enforces it too. A deposed
   * owner (a paused old leader) that still commits finds the delta id taken by the new owner's
   * commit and fails, leaving the log as the new owner wrote it.
   */
  @Test
  void aDeposedVersionOwnerCannotAppendToTheVersionLog() throws Exception {
    try (Storage deposed = open(StorageRole.versionOwner());
        Storage leader = open(StorageRole.versionOwner());
        Storage compute = open(StorageRole.follower(1))) {
      LocalStateStore l = compute.newLocal(TABLE);
      l.init(Epochs.of(1));
      SyncResult r = write(l, compute, 1, 0, 10);
      leader.commitEpoch(Epochs.of(1), r.ssts(), r.statsDelta());
      assertThatThrownBy(() -> deposed.commitEpoch(Epochs.of(1), List.of(), Map.of()))
          .isInstanceOf(StorageException.class)
          .hasMessageContaining("another version owner");
      assertThat(compute.refresh(Epochs.of(1))).isEqualTo(Epochs.of(1));
      assertThat(compute.tableStats().get(TABLE).totalKeyCount()).isEqualTo(10);
    }
  }

  /**
   * A deposed owner further behind, past a checkpoint of the new owner's (which pruned the deltas
   * below it): the pruned id it re-creates is taken back at once and its commit fails, and the log
   * reads as the new owner wrote it.
   */
  @Test
  void aDeposedVersionOwnerBehindACheckpointCannotRecreateAPrunedDelta() throws Exception {
    try (Storage deposed = open(StorageRole.versionOwner());
        Storage leader = open(StorageRole.versionOwner());
        Storage compute = open(StorageRole.follower(1))) {
      LocalStateStore l = compute.newLocal(TABLE);
      l.init(Epochs.of(1));
      for (long e = 1; e <= 4; e++) { // checkpoint every 3 versions: version 3 is one
        SyncResult r = write(l, compute, e, e * 10, e * 10 + 10);
        leader.commitEpoch(Epochs.of(e), r.ssts(), r.statsDelta());
      }
      assertThatThrownBy(() -> deposed.commitEpoch(Epochs.of(1), List.of(), Map.of()))
          .isInstanceOf(StorageException.class)
          .hasMessageContaining("behind checkpoint");
      try (Storage reader = open(StorageRole.follower(2))) {
        assertThat(reader.committedEpoch()).isEqualTo(Epochs.of(4));
        assertThat(reader.tableStats().get(TABLE).totalKeyCount()).isEqualTo(40);
      }
    }
  }

  @Test
  void refreshFailsLoudlyWhenTheAnnouncedEpochIsNotInTheStore() throws Exception {
    try (Storage compute = open(StorageRole.follower(1))) {
      assertThatThrownBy(() -> compute.refresh(Epochs.of(7)))
          .isInstanceOf(StorageException.class)
          .hasMessageContaining("below the announced");
    }
  }

  @Test
  void onlyTheOwnerChangesVersions() throws Exception {
    try (Storage compute = open(StorageRole.follower(3))) {
      assertThatThrownBy(() -> compute.commitEpoch(Epochs.of(1), List.of(), Map.of()))
          .isInstanceOf(StorageException.class)
          .hasMessageContaining("only the version owner");
      assertThatThrownBy(compute::vacuum).hasMessageContaining("only the version owner");
    }
  }

  @Test
  void followersAllocateDisjointSstIdsAndSurviveRestart() throws Exception {
    Set<Long> ids = new HashSet<>();
    try (Storage meta = open(StorageRole.versionOwner())) {
      for (int round = 0; round < 2; round++) {
        try (Storage a = open(StorageRole.follower(1));
            Storage b = open(StorageRole.follower(2))) {
          long e = 1 + round * 10L;
          LocalStateStore la = a.newLocal(TABLE);
          la.init(Epochs.of(e));
          LocalStateStore lb = b.newLocal(TABLE + 1);
          lb.init(Epochs.of(e));
          SyncResult ra = write(la, a, e, round * 1000L, round * 1000L + 10);
          for (long pk = 0; pk < 10; pk++) {
            lb.insert(
                Keys.key(TABLE + 1, 0, ByteBuffer.allocate(8).putLong(pk).array()), new byte[1]);
          }
          lb.sealCurrentEpoch(Epochs.of(e + 1));
          SyncResult rb = b.sync(Epochs.of(e)).get();
          List<SstInfo> all = new java.util.ArrayList<>(ra.ssts());
          all.addAll(rb.ssts());
          for (SstInfo s : all) {
            assertThat(ids.add(s.id())).as("sst id %s allocated twice", s.id()).isTrue();
          }
          meta.commitEpoch(
              Epochs.of(e),
              all,
              dev.tideway.storage.api.TableStats.sum(ra.statsDelta(), rb.statsDelta()));
        }
      }
      assertThat(meta.tableStats().get(TABLE).totalKeyCount()).isEqualTo(20);
    }
  }

  @Test
  void aRestartedFollowerNeverReusesAnSstIdEvenWhenTheFileIsGone() throws Exception {
    long first;
    try (Storage a = open(StorageRole.follower(1))) {
      LocalStateStore l = a.newLocal(TABLE);
      l.init(Epochs.of(1));
      SyncResult r = write(l, a, 1, 0, 10);
      first = r.ssts().get(0).id();
      // vacuum deleted it (compacted away) while another node's reader still knows it by id
      deleteObject(SstInfo.objectPath(first));
    }
    dev.tideway.common.time.Clock.system().sleepMillis(1_100);
    try (Storage again = open(StorageRole.follower(1))) {
      LocalStateStore l = again.newLocal(TABLE);
      l.init(Epochs.of(1));
      long next = write(l, again, 1, 0, 10).ssts().get(0).id();
      assertThat(next).as("first id of the restarted process").isGreaterThan(first);
      assertThat(next >>> StorageRole.SPACE_SHIFT).isEqualTo(1);
    }
  }

  @Test
  void followersCatchUpAcrossCheckpointsThatPrunedTheDeltaLog() throws Exception {
    try (Storage meta = open(StorageRole.versionOwner());
        Storage compute = open(StorageRole.follower(1));
        Storage frontend = open(StorageRole.follower(2))) {
      LocalStateStore l = compute.newLocal(TABLE);
      l.init(Epochs.of(1));
      for (long e = 1; e <= 10; e++) {
        SyncResult r = write(l, compute, e, e * 10, e * 10 + 10);
        meta.commitEpoch(Epochs.of(e), r.ssts(), r.statsDelta());
        compute.refresh(Epochs.of(e));
      }
      // checkpointEvery = 3: the frontend's next delta (version 1) was pruned long ago.
      assertThat(frontend.refresh(Epochs.of(10))).isEqualTo(Epochs.of(10));
      assertThat(frontend.get(key(105), Epochs.of(10))).isEqualTo("v105".getBytes());
      assertThat(frontend.tableStats().get(TABLE).totalKeyCount()).isEqualTo(100);
    }
  }

  @Test
  void aFollowerRunsTheOwnersCompactionAndTheOwnerAppliesAndVacuumsIt() throws Exception {
    try (Storage meta = open(StorageRole.versionOwner());
        Storage compute = open(StorageRole.follower(1))) {
      LocalStateStore l = compute.newLocal(TABLE);
      l.init(Epochs.of(1));
      for (long e = 1; e <= 4; e++) {
        for (long pk = 0; pk < 20; pk++) {
          l.update(key(pk), ("e" + (e - 1) + "-" + pk).getBytes(), ("e" + e + "-" + pk).getBytes());
        }
        l.sealCurrentEpoch(Epochs.of(e + 1));
        SyncResult r = compute.sync(Epochs.of(e)).get();
        meta.commitEpoch(Epochs.of(e), r.ssts(), r.statsDelta());
      }
      compute.refresh(Epochs.of(4));
      assertThat(meta.tableStats().get(TABLE).totalKeyCount()).isEqualTo(80);

      CompactionJob job = meta.pickCompaction(Epochs.of(4), true).orElseThrow();
      assertThat(job.inputCount()).isEqualTo(4);
      CompactionOutcome res = compute.compact(job).get();
      assertThat(res.changes().stream().flatMap(e -> e.added().stream()))
          .isNotEmpty()
          .allMatch(s -> (s.id() >>> StorageRole.SPACE_SHIFT) == 1);
      assertThat(meta.applyCompaction(res)).isTrue();
      assertThat(meta.applyCompaction(res))
          .as("inputs are gone: a second apply is refused")
          .isFalse();
      assertThat(meta.tableStats().get(TABLE).totalKeyCount()).isEqualTo(20);

      compute.refresh(Epochs.of(4));
      assertThat(compute.get(key(3), Epochs.of(4))).isEqualTo("e4-3".getBytes());
      Set<Long> garbage = meta.unreferencedSsts();
      assertThat(garbage).hasSize(4);
      assertThat(meta.deleteSsts(garbage)).isEqualTo(4);
      assertThat(compute.get(key(19), Epochs.of(4))).isEqualTo("e4-19".getBytes());
    }
  }
}
