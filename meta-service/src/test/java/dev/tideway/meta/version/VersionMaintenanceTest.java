package dev.tideway.meta.version;

import static dev.tideway.meta.cluster.ZkFixture.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.barrier.control.InjectBarrier;
import dev.tideway.common.time.ManualClock;
import dev.tideway.meta.barrier.ComputeClient;
import dev.tideway.protocol.catalog.CatalogState;
import dev.tideway.protocol.catalog.FragmentGraph;
import dev.tideway.storage.api.CompactionJob;
import dev.tideway.storage.api.CompactionOutcome;
import dev.tideway.storage.api.Epochs;
import dev.tideway.storage.api.Keys;
import dev.tideway.storage.api.LocalStateStore;
import dev.tideway.storage.api.StateStores;
import dev.tideway.storage.api.Storage;
import dev.tideway.storage.api.StorageOptions;
import dev.tideway.storage.api.StorageRole;
import dev.tideway.storage.api.SyncResult;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The leader's version maintenance over a real shared store: compaction is picked with the safe
 * epoch, run on a compute node (a follower store), applied by the owner; the replaced SSTs are
 * deleted only after the grace period; a reader pin holds the safe epoch back.
 */
class VersionMaintenanceTest {
  static final int TABLE = 12;

  @TempDir Path dir;

  final List<String> compactedOn = new CopyOnWriteArrayList<>();
  final List<CompactionJob> requests = new CopyOnWriteArrayList<>();

  /** A compute node that only compacts, on its own follower store. */
  ComputeClient nodeOver(Storage follower) {
    return new ComputeClient() {
      @Override
      public void inject(InjectBarrier request) {}

      @Override
      public CompletableFuture<Void> build(FragmentGraph graph, CatalogState catalog) {
        return CompletableFuture.completedFuture(null);
      }

      @Override
      public void reset(long generation, long committedEpoch, CatalogState catalog) {}

      @Override
      public void drop(Set<Integer> actorIds) {}

      @Override
      public CompletableFuture<CompactionOutcome> compact(String node, CompactionJob job) {
        compactedOn.add(node);
        requests.add(job);
        return follower.compact(job);
      }
    };
  }

  @Test
  void compactsOnANodeAppliesAndVacuumsAfterTheGracePeriod() throws Exception {
    StorageOptions opts = StorageOptions.defaults().withCompaction(false, 4, 256L << 20, 64L << 20);
    ManualClock clock = new ManualClock(1_000_000);
    ReaderPins pins = new ReaderPins(clock);
    try (Storage meta =
            StateStores.open(
                dir.toUri().toString(),
                opts.withRegistry(new PrometheusRegistry()),
                StorageRole.versionOwner());
        Storage compute =
            StateStores.open(
                dir.toUri().toString(),
                opts.withRegistry(new PrometheusRegistry()),
                StorageRole.follower(1))) {
      LocalStateStore l = compute.newLocal(TABLE);
      l.init(Epochs.of(1));
      for (long e = 1; e <= 4; e++) {
        for (int pk = 0; pk < 50; pk++) {
          byte[] k = Keys.key(TABLE, pk % 256, ByteBuffer.allocate(8).putLong(pk).array());
          if (e == 1) {
            l.insert(k, ("v" + e).getBytes());
          } else {
            l.update(k, ("v" + (e - 1)).getBytes(), ("v" + e).getBytes());
          }
        }
        l.sealCurrentEpoch(Epochs.of(e + 1));
        SyncResult r = compute.sync(Epochs.of(e)).get();
        meta.commitEpoch(Epochs.of(e), r.ssts(), r.statsDelta());
      }
      assertThat(meta.tableStats().get(TABLE).totalKeyCount()).isEqualTo(200);
      pins.pin("frontend-1:query-7", Epochs.of(2), 60_000);

      var config = new VersionMaintenance.Config(10, 60_000, 10, 30_000);
      try (VersionMaintenance vm =
          new VersionMaintenance(
              meta,
              nodeOver(compute),
              () -> List.of("compute-1:5688"),
              () -> Epochs.of(4),
              pins,
              config,
              clock)) {
        vm.start();
        awaitTrue("compaction applied", 10_000, () -> vm.stats().compactionsApplied() == 1);
        assertThat(compactedOn).containsExactly("compute-1:5688");
        assertThat(requests.get(0).safeEpoch())
            .as("the reader pin bounds the safe epoch")
            .isEqualTo(Epochs.of(2));
        // versions above the pinned epoch survive: 50 keys at epochs 3 and 4, one at <= 2
        assertThat(meta.tableStats().get(TABLE).totalKeyCount()).isEqualTo(150);

        clock.advanceMillis(20); // the next vacuum round lists the replaced SSTs
        awaitTrue("replaced SSTs listed", 10_000, () -> vm.stats().awaitingGrace() == 4);
        clock.advanceMillis(20);
        Thread.sleep(100); // more vacuum rounds, still inside the grace period
        assertThat(vm.stats().sstsDeleted()).isZero();
        clock.advanceMillis(31_000);
        awaitTrue("replaced SSTs vacuumed", 10_000, () -> vm.stats().sstsDeleted() == 4);
      }
      compute.refresh(Epochs.of(4));
      byte[] k = Keys.key(TABLE, 7, ByteBuffer.allocate(8).putLong(7).array());
      assertThat(compute.get(k, Epochs.of(4))).isEqualTo("v4".getBytes());
      assertThat(compute.get(k, Epochs.of(2))).isEqualTo("v2".getBytes());
      assertThat(meta.unreferencedSsts()).isEmpty();
      assertThat(Map.copyOf(meta.tableStats())).containsKey(TABLE);
    }
  }

  @Test
  void expiredReaderPinsStopHoldingTheSafeEpoch() {
    ManualClock clock = new ManualClock(0);
    ReaderPins pins = new ReaderPins(clock);
    pins.pin("a", 10, 1_000);
    pins.pin("b", 20, 5_000);
    assertThat(pins.minPinnedEpoch(99)).isEqualTo(10);
    clock.advanceMillis(1_000);
    assertThat(pins.minPinnedEpoch(99)).isEqualTo(20);
    pins.unpin("b");
    assertThat(pins.minPinnedEpoch(99)).isEqualTo(99);
  }
}
