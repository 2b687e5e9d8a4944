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
import dev.tideway.protocol.catalog.CatalogObject;
import dev.tideway.protocol.catalog.CreateType;
import dev.tideway.protocol.catalog.KryoPlanCodec;
import dev.tideway.protocol.catalog.NodeInfo;
import dev.tideway.protocol.catalog.ObjectKind;
import dev.tideway.protocol.catalog.VersionPointer;
import dev.tideway.protocol.meta.DdlCommand;
import dev.tideway.protocol.meta.DdlReply;
import dev.tideway.protocol.store.MetaPaths;
import dev.tideway.protocol.store.NodeRegistry;
import dev.tideway.storage.api.SstInfo;
import dev.tideway.storage.api.StateStores;
import dev.tideway.storage.api.Storage;
import dev.tideway.storage.api.StorageOptions;
import dev.tideway.storage.api.StorageRole;
import dev.tideway.storage.engine.StorageEngine;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code DROP MATERIALIZED VIEW}, {@code DROP TABLE} and {@code CANCEL JOBS} clean up storage:
 * after the drops commit, the dropped relations' and their internal tables' stats leave the
 * version, the cleanup compaction (run on the compute node, picked by {@link VersionMaintenance})
 * and vacuum delete every Parquet file that held their rows, and the table that stays is untouched
 * and readable.
 */
class DropCleansStorageTest {
  static final int ROWS_PER_BARRIER = 5;

  @TempDir Path dir;

  Storage open(StorageRole role) {
    return StateStores.open(
        dir.toUri().toString(),
        StorageOptions.defaults()
            .withRegistry(new PrometheusRegistry())
            .withCompaction(false, 4, 256L << 20, 64L << 20),
        role);
  }

  @Test
  void droppedTablesAndMviewsLeaveTheVersionAndTheDisk() throws Exception {
    String url = dir.toUri().toString();
    AtomicLong announced = new AtomicLong();
    AtomicReference<MetaServer> server = new AtomicReference<>();
    try (ZkFixture zk = new ZkFixture();
        Storage metaStore = open(StorageRole.versionOwner());
        Storage nodeStore = open(StorageRole.follower(1))) {
      CuratorFramework nodeClient = zk.newClient();
      NodeRegistry nodes = new NodeRegistry(nodeClient, new MetaPaths("drop"));
      nodes.register(new NodeInfo("compute", "compute-1:5688", 1, 2, 0));
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
                  new StorageCompute(
                      nodeStore,
                      () -> storedTables(server.get()),
                      ROWS_PER_BARRIER,
                      m::onCompleted),
              new StorageVersionCommitter(metaStore, url),
              u -> {},
              RecoveryBackoff.DEFAULT,
              follow,
              List.of(
                  VersionMaintenance.task(
                      metaStore,
                      new ReaderPins(Clock.system()),
                      new VersionMaintenance.Config(50, 30_000, 100, 1_000),
                      Clock.system())));
      MetaConfig config =
          new MetaConfig(
              "drop", zk.connectString(), "meta-a", "meta-a:5690", "127.0.0.1", 0, 2_000, 10_000);
      try (MetaServer meta =
          MetaServer.start(config, KryoPlanCodec.create(), Clock.system(), wiring)) {
        server.set(meta);
        awaitTrue("ready leader", 10_000, () -> meta.isLeader() && meta.isReady());
        int schema =
            meta.catalog()
                .orElseThrow()
                .find(1, CatalogCore.DEFAULT_SCHEMA, ObjectKind.SCHEMA)
                .orElseThrow()
                .id();
        int a =
            ((DdlReply.IdsReserved)
                    meta.ddl().submit(new DdlCommand.ReserveIds(8)).get(5, TimeUnit.SECONDS))
                .from();
        int kept = a + 1;
        create(meta, ObjectKind.TABLE, schema, "t", Plans.sourceTable(a, kept));
        create(meta, ObjectKind.TABLE, schema, "u", Plans.sourceTable(a + 2, a + 3));
        create(meta, ObjectKind.MATERIALIZED_VIEW, schema, "mv", Plans.mvOnMv(a + 3, a + 4, a + 5));
        int cancelled =
            create(
                meta,
                ObjectKind.MATERIALIZED_VIEW,
                schema,
                "mv_t",
                Plans.mvOnMv(kept, a + 6, a + 7));
        Set<Integer> dropped = Set.of(a + 2, a + 3, a + 4, a + 5, a + 6, a + 7);
        awaitTrue(
            "every table has rows and some are compacted",
            30_000,
            () ->
                metaStore.tableStats().keySet().containsAll(dropped)
                    && StorageBarrierLoopTest.countAt(nodeStore, a + 5, announced.get())
                        >= 20 * ROWS_PER_BARRIER
                    && StorageBarrierLoopTest.compacted(metaStore));

        StorageEngine owner = (StorageEngine) metaStore;
        Set<Long> heldDropped = new HashSet<>();
        for (SstInfo s : owner.version().allSsts()) {
          if (s.tableStats().keySet().stream().anyMatch(dropped::contains)) {
            heldDropped.add(s.id());
          }
        }
        long filesBefore = sstFiles().size();
        long bytesBefore = sstBytes();
        assertThat(heldDropped).isNotEmpty();
        drop(meta, ObjectKind.MATERIALIZED_VIEW, schema, "mv");
        drop(meta, ObjectKind.TABLE, schema, "u");
        assertThat(meta.ddl().submit(new DdlCommand.CancelJob(cancelled)).get(5, TimeUnit.SECONDS))
            .as("CANCEL JOBS of the creating mv_t")
            .isInstanceOf(DdlReply.JobRemoved.class);

        awaitTrue(
            "the dropped tables' stats leave the version",
            10_000,
            () -> dropped.stream().noneMatch(metaStore.tableStats()::containsKey));
        assertThat(metaStore.droppedTables()).containsAll(dropped);
        awaitTrue(
            "no SST of the version holds dropped rows, and their files are vacuumed",
            30_000,
            () ->
                owner.version().allSsts().stream()
                        .noneMatch(
                            s -> s.tableStats().keySet().stream().anyMatch(dropped::contains))
                    && sstFiles().stream().noneMatch(heldDropped::contains));
        System.out.printf(
            "drop: %d SSTs held dropped rows; files on disk %d -> %d, bytes %d -> %d%n",
            heldDropped.size(), filesBefore, sstFiles().size(), bytesBefore, sstBytes());

        // the table that stays is whole and still growing
        // one pinned iterator: separate point reads at e could fall below a safe epoch that
        // keeps moving while the loop commits and compacts
        long e = announced.get();
        nodeStore.refresh(e);
        java.util.Map<String, String> found = new java.util.HashMap<>();
        try (var it = nodeStore.iter(dev.tideway.storage.api.KeyRange.table(kept), e)) {
          while (it.next()) {
            found.put(
                java.util.HexFormat.of().formatHex(it.key()),
                new String(it.value(), java.nio.charset.StandardCharsets.UTF_8));
          }
        }
        long rows = found.size();
        assertThat(rows).isPositive();
        assertThat(rows % ROWS_PER_BARRIER).isZero();
        for (long pk = 0; pk < rows; pk++) {
          assertThat(found.get(java.util.HexFormat.of().formatHex(StorageCompute.key(kept, pk))))
              .as("row %s of the kept table", pk)
              .isEqualTo("row-" + pk);
        }
        assertThat(metaStore.tableStats().get(kept).totalKeyCount()).isGreaterThanOrEqualTo(rows);
      } finally {
        nodes.close();
        nodeClient.close();
      }
    }
  }

  /** What the catalog stores: tables, MVs and internal tables (the node writes each of them). */
  static List<Integer> storedTables(MetaServer meta) {
    if (meta == null || meta.catalog().isEmpty()) {
      return List.of();
    }
    return meta.catalog().orElseThrow().objects().values().stream()
        .filter(
            o ->
                o.kind() == ObjectKind.TABLE
                    || o.kind() == ObjectKind.MATERIALIZED_VIEW
                    || o.kind() == ObjectKind.INTERNAL_TABLE)
        .map(CatalogObject::id)
        .sorted()
        .toList();
  }

  static int create(
      MetaServer meta,
      ObjectKind kind,
      int schema,
      String name,
      dev.tideway.common.plan.StreamPlanNode plan)
      throws Exception {
    DdlReply r =
        meta.ddl()
            .submit(
                new DdlCommand.CreateStreamingJob(
                    kind, schema, name, "CREATE " + name, plan, CreateType.BACKGROUND))
            .get(5, TimeUnit.SECONDS);
    assertThat(r).as("create %s", name).isInstanceOf(DdlReply.JobAccepted.class);
    return ((DdlReply.JobAccepted) r).job().jobId();
  }

  static void drop(MetaServer meta, ObjectKind kind, int schema, String name) throws Exception {
    DdlReply r =
        meta.ddl().submit(new DdlCommand.Drop(kind, schema, name)).get(5, TimeUnit.SECONDS);
    assertThat(r).as("drop %s", name).isInstanceOf(DdlReply.JobRemoved.class);
  }

  Set<Long> sstFiles() {
    Set<Long> ids = new HashSet<>();
    try (Stream<Path> files = Files.list(dir.resolve("sst"))) {
      files.forEach(p -> ids.add(SstInfo.idOfPath("sst/" + p.getFileName())));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return ids;
  }

  long sstBytes() {
    try (Stream<Path> files = Files.list(dir.resolve("sst"))) {
      return files.mapToLong(p -> p.toFile().length()).sum();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
