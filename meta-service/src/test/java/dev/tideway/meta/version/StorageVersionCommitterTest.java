package dev.tideway.meta.version;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.barrier.control.TableStatsDelta;
import dev.tideway.meta.barrier.VersionCommitter.CommittedVersion;
import dev.tideway.storage.api.Epochs;
import dev.tideway.storage.api.Keys;
import dev.tideway.storage.api.LocalStateStore;
import dev.tideway.storage.api.StateStores;
import dev.tideway.storage.api.Storage;
import dev.tideway.storage.api.StorageOptions;
import dev.tideway.storage.api.StorageRole;
import dev.tideway.storage.api.SyncResult;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The production version committer over a real store shared by a "compute node" (follower) and two
 * "meta processes" (owners in turn): commits are durable and visible to followers, the stats the
 * tracker sees are the store's, and a new leader's re-commit of an epoch changes nothing.
 */
class StorageVersionCommitterTest {
  static final int TABLE = 11;

  @TempDir Path dir;

  Storage open(StorageRole role) {
    return StateStores.open(dir.toUri().toString(), StorageOptions.defaults(), role);
  }

  static SyncResult write(LocalStateStore l, Storage s, long e, int rows) throws Exception {
    for (int i = 0; i < rows; i++) {
      long pk = e * 1000 + i;
      l.insert(Keys.key(TABLE, i % 256, ByteBuffer.allocate(8).putLong(pk).array()), new byte[4]);
    }
    l.sealCurrentEpoch(Epochs.of(e + 1));
    return s.sync(Epochs.of(e)).get();
  }

  static List<TableStatsDelta> deltas(SyncResult r) {
    return r.statsDelta().entrySet().stream()
        .map(
            en ->
                new TableStatsDelta(
                    en.getKey(), en.getValue().totalKeyCount(), en.getValue().liveRowCount(), true))
        .toList();
  }

  @Test
  void commitsAreDurableIdempotentAndFollowedByANewLeader() throws Exception {
    String url = dir.toUri().toString();
    try (Storage compute = open(StorageRole.follower(1))) {
      LocalStateStore l = compute.newLocal(TABLE);
      l.init(Epochs.of(1));
      SyncResult r1 = write(l, compute, 1, 30);
      SyncResult r2 = write(l, compute, 2, 20);

      long committed;
      try (Storage metaA = open(StorageRole.versionOwner())) {
        var a = new StorageVersionCommitter(metaA, url, t -> t == TABLE);
        CommittedVersion v = a.commit(List.of(Epochs.of(1)), r1.ssts(), deltas(r1));
        assertThat(v.pointer().maxCommittedEpoch()).isEqualTo(Epochs.of(1));
        assertThat(v.pointer().location()).isEqualTo(url);
        assertThat(v.stats().totalKeyCount(TABLE)).isEqualTo(30);
        assertThat(v.stats().liveRowCount(TABLE)).isEqualTo(30);
        v = a.commit(List.of(Epochs.of(2)), r2.ssts(), deltas(r2));
        assertThat(v.stats().totalKeyCount(TABLE)).isEqualTo(50);
        committed = v.pointer().versionId();

        // the compute node follows
        compute.refresh(Epochs.of(2));
        assertThat(compute.tableStats().get(TABLE).totalKeyCount()).isEqualTo(50);
      }

      // meta B was a standby with a stale view; on election it refreshes, then a re-commit of
      // epoch 2 (its ZooKeeper pointer may lag) changes nothing.
      try (Storage metaB = open(StorageRole.versionOwner())) {
        SyncResult r3 = write(l, compute, 3, 5);
        var b = new StorageVersionCommitter(metaB, url);
        CommittedVersion cur = b.current();
        assertThat(cur.pointer().versionId()).isEqualTo(committed);
        CommittedVersion again = b.commit(List.of(Epochs.of(2)), r2.ssts(), deltas(r2));
        assertThat(again.pointer().versionId()).isEqualTo(committed);
        assertThat(again.stats().totalKeyCount(TABLE)).isEqualTo(50);
        assertThat(again.stats().liveRowCount(TABLE)).as("not declared exact").isEqualTo(-1);
        CommittedVersion v3 = b.commit(List.of(Epochs.of(3)), r3.ssts(), deltas(r3));
        assertThat(v3.pointer().maxCommittedEpoch()).isEqualTo(Epochs.of(3));
        assertThat(v3.stats().totalKeyCount(TABLE)).isEqualTo(55);
      }
    }
  }
}
