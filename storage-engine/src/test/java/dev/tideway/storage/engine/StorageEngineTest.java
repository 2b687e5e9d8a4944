package dev.tideway.storage.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tideway.storage.api.Epochs;
import dev.tideway.storage.api.KeyRange;
import dev.tideway.storage.api.Keys;
import dev.tideway.storage.api.LocalStateStore;
import dev.tideway.storage.api.LogEntry;
import dev.tideway.storage.api.StorageException;
import dev.tideway.storage.api.StorageOptions;
import dev.tideway.storage.api.SyncResult;
import dev.tideway.storage.objectstore.InMemoryObjectStore;
import java.nio.ByteBuffer;
import java.util.BitSet;
import java.util.List;
import org.junit.jupiter.api.Test;

class StorageEngineTest {
  static byte[] key(int vnode, long pk) {
    return Keys.key(5, vnode, ByteBuffer.allocate(8).putLong(pk).array());
  }

  static void syncCommit(StorageEngine s, long e) throws Exception {
    SyncResult r = s.sync(Epochs.of(e)).get();
    s.commitEpoch(Epochs.of(e), r.ssts(), r.statsDelta());
  }

  @Test
  void nothingIsVisibleToCommittedReadsBeforeCommitEpoch() throws Exception {
    try (StorageEngine s =
        StorageEngine.open(new InMemoryObjectStore(), StorageOptions.defaults())) {
      LocalStateStore l = s.newLocal(5);
      l.init(Epochs.of(1));
      l.insert(key(0, 1), "a".getBytes());
      l.sealCurrentEpoch(Epochs.of(2));
      SyncResult r = s.sync(Epochs.of(1)).get();
      assertThat(r.ssts()).hasSize(1);
      assertThat(r.statsDelta().get(5).liveRowCount()).isEqualTo(1);
      assertThatThrownBy(() -> s.get(key(0, 1), Epochs.of(1)))
          .isInstanceOf(StorageException.class)
          .hasMessageContaining("outside");
      assertThat(l.get(key(0, 1))).isEqualTo("a".getBytes());
      s.commitEpoch(Epochs.of(1), r.ssts(), r.statsDelta());
      assertThat(s.get(key(0, 1), Epochs.of(1))).isEqualTo("a".getBytes());
      assertThatThrownBy(() -> s.commitEpoch(Epochs.of(1), List.of(), java.util.Map.of()))
          .isInstanceOf(StorageException.class);
    }
  }

  /**
   * A node asks for sync(E1), sync(E2), ... back to back without waiting; the syncs must run in
   * that order (they used to race on the multi-threaded upload pool and fail "sync of epoch E1
   * after E2").
   */
  @Test
  void syncsIssuedBackToBackRunInEpochOrder() throws Exception {
    // The default options upload on two threads.
    try (StorageEngine s =
        StorageEngine.open(new InMemoryObjectStore(), StorageOptions.defaults())) {
      LocalStateStore l = s.newLocal(5);
      l.init(Epochs.of(1));
      int epochs = 200;
      List<java.util.concurrent.CompletableFuture<SyncResult>> syncs = new java.util.ArrayList<>();
      for (int e = 1; e <= epochs; e++) {
        l.insert(key(e % 7, e), ("v" + e).getBytes());
        l.sealCurrentEpoch(Epochs.of(e + 1));
        syncs.add(s.sync(Epochs.of(e)));
      }
      for (int e = 1; e <= epochs; e++) {
        SyncResult r = syncs.get(e - 1).get();
        s.commitEpoch(Epochs.of(e), r.ssts(), r.statsDelta());
      }
      assertThat(s.get(key(200 % 7, 200), Epochs.of(200))).isEqualTo("v200".getBytes());
    }
  }

  @Test
  void memoryStaysBoundedBySpillingUnderTheLimit() throws Exception {
    StorageOptions o = StorageOptions.defaults().withMemory(64 << 10, 16 << 10);
    try (StorageEngine s = StorageEngine.open(new InMemoryObjectStore(), o)) {
      LocalStateStore l = s.newLocal(5);
      l.init(Epochs.of(1));
      byte[] v = new byte[100];
      long maxSubEpoch = 0;
      for (int i = 0; i < 20_000; i++) {
        l.insert(key(i % 3, i), v);
        maxSubEpoch = Math.max(maxSubEpoch, l.epoch() & Epochs.SUB_EPOCH_MASK);
        if (i % 2000 == 1999) {
          l.sealCurrentEpoch(Epochs.of(2 + i / 2000));
        }
        assertThat(s.sharedBuffer().immBytes())
            .isLessThanOrEqualTo(2 * (64 << 10) + (16 << 10) + 4096);
      }
      assertThat(maxSubEpoch).as("a long epoch moved on to sub-epochs").isPositive();
      long last = Epochs.physicalMillis(l.epoch());
      l.sealCurrentEpoch(Epochs.of(last + 1));
      syncCommit(s, last);
      assertThat(s.tableStats().get(5).liveRowCount()).isEqualTo(20_000);
      assertThat(s.tableStats().get(5).totalKeyCount()).isEqualTo(20_000);
      int n = 0;
      try (var it = s.iter(KeyRange.table(5), s.committedEpoch())) {
        while (it.next()) {
          n++;
        }
      }
      assertThat(n).isEqualTo(20_000);
    }
  }

  @Test
  void changeLogKeepsEveryEpochsChangesUntilReleased() throws Exception {
    StorageOptions o = StorageOptions.defaults().withCompaction(false, 2, 1 << 20, 1 << 20);
    try (StorageEngine s = StorageEngine.open(new InMemoryObjectStore(), o)) {
      s.registerChangeLog(5, Epochs.of(1));
      LocalStateStore l = s.newLocal(5);
      l.init(Epochs.of(1));
      l.insert(key(0, 1), "a".getBytes());
      l.insert(key(1, 2), "b".getBytes());
      l.sealCurrentEpoch(Epochs.of(2));
      syncCommit(s, 1);
      l.update(key(0, 1), "a".getBytes(), "a2".getBytes());
      l.delete(key(1, 2), "b".getBytes());
      l.sealCurrentEpoch(Epochs.of(3));
      syncCommit(s, 2);
      s.compactNow(true);
      List<LogEntry> log = s.iterLog(5, null, Epochs.of(1), Epochs.of(2));
      assertThat(log)
          .extracting(LogEntry::epoch, LogEntry::kind)
          .containsExactly(
              org.assertj.core.groups.Tuple.tuple(Epochs.of(1), LogEntry.Kind.INSERT),
              org.assertj.core.groups.Tuple.tuple(Epochs.of(1), LogEntry.Kind.INSERT),
              org.assertj.core.groups.Tuple.tuple(Epochs.of(2), LogEntry.Kind.UPDATE),
              org.assertj.core.groups.Tuple.tuple(Epochs.of(2), LogEntry.Kind.DELETE));
      assertThat(log.get(2).oldValue()).isEqualTo("a".getBytes());
      assertThat(log.get(3).oldValue()).isEqualTo("b".getBytes());
      BitSet vnode1 = new BitSet();
      vnode1.set(1);
      assertThat(s.iterLog(5, vnode1, Epochs.of(2), Epochs.of(2)))
          .extracting(LogEntry::kind)
          .containsExactly(LogEntry.Kind.DELETE);
      s.releaseChangeLog(5, -1);
      s.compactNow(true);
      assertThat(s.tableStats().get(5).totalKeyCount()).isEqualTo(1);
      assertThatThrownBy(() -> s.iterLog(5, null, Epochs.of(1), Epochs.of(2)))
          .isInstanceOf(StorageException.class);
    }
  }
}
