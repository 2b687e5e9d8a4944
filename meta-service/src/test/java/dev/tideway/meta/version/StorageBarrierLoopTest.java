package dev.tideway.meta.version;

import static dev.tideway.meta.cluster.ZkFixture.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.barrier.global.BarrierConfig;
import dev.tideway.barrier.progress.ProgressConfig;
import dev.tideway.common.time.Clock;
import dev.tideway.meta.MetaConfig;
import dev.tideway.meta.MetaServer;
import dev.tideway.meta.barrier.BarrierObserver;
import dev.tideway.meta.barrier.BarrierRunner;
import dev.tideway.meta.barrier.RecoveryBackoff;
import dev.tideway.meta.catalog.CatalogCore;
import dev.tideway.meta.cluster.ZkFixture;
import dev.tideway.meta.fragment.Plans;
import dev.tideway.protocol.catalog.CreateType;
import dev.tideway.protocol.catalog.KryoPlanCodec;
import dev.tideway.protocol.catalog.NodeInfo;
import dev.tideway.protocol.catalog.ObjectKind;
import dev.tideway.protocol.catalog.VersionPointer;
import dev.tideway.protocol.meta.DdlCommand;
import dev.tideway.protocol.meta.DdlReply;
import dev.tideway.protocol.store.MetaPaths;
import dev.tideway.protocol.store.NodeRegistry;
import dev.tideway.storage.api.KeyRange;
import dev.tideway.storage.api.SstInfo;
import dev.tideway.storage.api.StateStores;
import dev.tideway.storage.api.Storage;
import dev.tideway.storage.api.StorageOptions;
import dev.tideway.storage.api.StorageRole;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The production version path end to end inside meta: a wired {@link MetaServer} whose barrier loop
 * commits a compute node's real SSTs through {@link StorageVersionCommitter} (meta owns the
 * versions, the node follows them), persists the pointer in ZooKeeper after the store, announces
 * committed epochs the node refreshes to, and compacts on the node with {@link VersionMaintenance}.
 */
class StorageBarrierLoopTest {
  static final int ROWS_PER_BARRIER = 7;

  @TempDir Path dir;

  Storage open(StorageRole role) {
    return StateStores.open(
        dir.toUri().toString(),
        StorageOptions.defaults().withRegistry(new PrometheusRegistry()),
        role);
  }

  @Test
  void checkpointsCommitRealSstsTheNodeFollowsAndCompacts() throws Exception {
    String url = dir.toUri().toString();
    AtomicLong announced = new AtomicLong();
    try (ZkFixture zk = new ZkFixture();
        Storage metaStore = open(StorageRole.versionOwner());
        Storage nodeStore = open(StorageRole.follower(1))) {
      CuratorFramework nodeClient = zk.newClient();
      NodeRegistry nodes = new NodeRegistry(nodeClient, new MetaPaths("storage"));
      nodes.register(new NodeInfo("compute", "compute-1:5688", 1, 2, 0));
      int[] table = new int[1];
      StorageCompute[] node = new StorageCompute[1];
      ReaderPins pins = new ReaderPins(Clock.system());
      BarrierObserver follow =
          new BarrierObserver() {
            @Override
            public void onEpochCommitted(long epoch, VersionPointer pointer) {
              nodeStore.refresh(epoch);
              announced.set(epoch);
            }
          };
      var wiring =
          new BarrierRunner.Wiring<SstInfo>(
              new BarrierConfig(20, 1, 4, 10_000),
              ProgressConfig.DEFAULT,
              m ->
                  node[0] =
                      new StorageCompute(nodeStore, table[0], ROWS_PER_BARRIER, m::onCompleted),
              new StorageVersionCommitter(metaStore, url),
              u -> {},
              RecoveryBackoff.DEFAULT,
              follow,
              List.of(
                  VersionMaintenance.task(
                      metaStore,
                      pins,
                      new VersionMaintenance.Config(50, 30_000, 100, 2_000),
                      Clock.system())));
      MetaConfig config =
          new MetaConfig(
              "storage",
              zk.connectString(),
              "meta-a",
              "meta-a:5690",
              "127.0.0.1",
              0,
              2_000,
              10_000);
      try (MetaServer meta =
          MetaServer.start(config, KryoPlanCodec.create(), Clock.system(), wiring)) {
        awaitTrue("ready leader", 10_000, () -> meta.isLeader() && meta.isReady());
        int schema =
            meta.catalog()
                .orElseThrow()
                .find(1, CatalogCore.DEFAULT_SCHEMA, ObjectKind.SCHEMA)
                .orElseThrow()
                .id();
        var ids =
            (DdlReply.IdsReserved)
                meta.ddl().submit(new DdlCommand.ReserveIds(2)).get(5, TimeUnit.SECONDS);
        table[0] = ids.from() + 1;
        meta.ddl()
            .submit(
                new DdlCommand.CreateStreamingJob(
                    ObjectKind.TABLE,
                    schema,
                    "t",
                    "CREATE TABLE t",
                    Plans.sourceTable(ids.from(), table[0]),
                    CreateType.FOREGROUND))
            .get(5, TimeUnit.SECONDS);

        awaitTrue(
            "20 checkpoints",
            20_000,
            () -> countAt(nodeStore, table[0], announced.get()) >= 20 * ROWS_PER_BARRIER);
        awaitTrue(
            "a compaction ran on the node and was applied",
            20_000,
            () -> node[0].compactions.get() > 0 && compacted(metaStore));

        // the ZooKeeper pointer names a version the store holds, at or below the store's epoch
        VersionPointer p = meta.catalog().orElseThrow().versionPointer().orElseThrow();
        assertThat(p.location()).isEqualTo(url);
        assertThat(p.maxCommittedEpoch()).isLessThanOrEqualTo(metaStore.committedEpoch());
        nodeStore.refresh(p.maxCommittedEpoch());
        // one read, one pinned version: compaction keeps running and may move the safe epoch past
        // any epoch a sequence of separate reads would use
        long e = nodeStore.committedEpoch();
        long rows = 0;
        java.util.BitSet pks = new java.util.BitSet();
        try (var it = nodeStore.iter(KeyRange.table(table[0]), e)) {
          while (it.next()) {
            long pk = java.nio.ByteBuffer.wrap(it.key(), it.key().length - 8, 8).getLong();
            assertThat(it.value()).as("row %s", pk).isEqualTo(("row-" + pk).getBytes());
            pks.set(Math.toIntExact(pk));
            rows++;
          }
        }
        assertThat(pks.cardinality()).as("rows 0..n-1, each once").isEqualTo(pks.length());
        assertThat((long) pks.cardinality()).isEqualTo(rows);
        assertThat(rows).isGreaterThanOrEqualTo(20 * ROWS_PER_BARRIER);
        assertThat(rows % ROWS_PER_BARRIER).as("whole barriers only").isZero();
        // the owner writes a version's delta (the commit point, which followers read) before it
        // publishes that version in memory: wait until its stats are at least at the read's epoch
        final long readEpoch = e;
        awaitTrue(
            "the owner publishes epoch " + e, 5_000, () -> metaStore.committedEpoch() >= readEpoch);
        assertThat(metaStore.tableStats().get(table[0]).liveRowCount())
            .isGreaterThanOrEqualTo(rows);
      } finally {
        nodes.close();
        nodeClient.close();
      }
    }
  }

  /** Some SST sits below L0: a compaction result was applied to the version. */
  static boolean compacted(Storage s) {
    String d = s.describeVersion(); // Version#N{committed=…, safe=…, ssts={0=a, 1=b, 2=c, 3=d}}
    String levels = d.substring(d.indexOf("ssts={") + 6, d.lastIndexOf('}') - 1);
    for (String l : levels.split(", ")) {
      if (!l.startsWith("0=") && !l.endsWith("=0")) {
        return true;
      }
    }
    return false;
  }

  static long countAt(Storage s, int table, long epoch) {
    if (epoch <= 0 || epoch < s.safeEpoch() || epoch > s.committedEpoch()) {
      return 0;
    }
    long n = 0;
    try (var it = s.iter(KeyRange.table(table), epoch)) {
      while (it.next()) {
        n++;
      }
    }
    return n;
  }
}
