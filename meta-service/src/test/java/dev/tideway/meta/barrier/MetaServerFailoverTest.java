package dev.tideway.meta.barrier;

import static dev.tideway.meta.cluster.ZkFixture.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.barrier.global.BarrierConfig;
import dev.tideway.barrier.progress.JobProgress;
import dev.tideway.barrier.progress.ProgressConfig;
import dev.tideway.common.time.Clock;
import dev.tideway.meta.MetaConfig;
import dev.tideway.meta.MetaServer;
import dev.tideway.meta.catalog.CatalogCore;
import dev.tideway.meta.cluster.ZkFixture;
import dev.tideway.meta.fragment.Plans;
import dev.tideway.protocol.catalog.CatalogState;
import dev.tideway.protocol.catalog.FragmentGraph;
import dev.tideway.protocol.catalog.JobStatus;
import dev.tideway.protocol.catalog.KryoPlanCodec;
import dev.tideway.protocol.catalog.NodeInfo;
import dev.tideway.protocol.catalog.ObjectKind;
import dev.tideway.protocol.meta.DdlCommand;
import dev.tideway.protocol.meta.DdlReply;
import dev.tideway.protocol.store.MetaPaths;
import dev.tideway.protocol.store.NodeRegistry;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two whole meta processes ({@link MetaServer}s with barrier loops) on one ZooKeeper: the leader
 * stops while an MV is backfilling; the standby leads within 15 s, restores the job's progress from
 * ZooKeeper (no drop to zero) and finishes it. Then every process and ZooKeeper stop, and a fresh
 * meta process on the same ZooKeeper data directory finds all metadata.
 */
class MetaServerFailoverTest {
  static final String CLUSTER = "failover";

  final FakeCompute compute = new FakeCompute(4, 600);
  final FakeVersions versions = new FakeVersions();
  final List<String> sampleLeaders = new CopyOnWriteArrayList<>();
  final List<JobProgress> samples = new CopyOnWriteArrayList<>();

  @TempDir Path zkData;

  MetaServer start(ZkFixture zk, String name) throws Exception {
    var wiring =
        new BarrierRunner.Wiring<String>(
            new BarrierConfig(20, 1, 4, 10_000),
            ProgressConfig.DEFAULT,
            m -> compute.clientFor(m::onCompleted),
            versions,
            u ->
                u.jobs()
                    .forEach(
                        p -> {
                          sampleLeaders.add(name);
                          samples.add(p);
                        }));
    MetaConfig config =
        new MetaConfig(
            CLUSTER, zk.connectString(), name, name + ":5690", "127.0.0.1", 0, 2_000, 10_000);
    return MetaServer.start(config, KryoPlanCodec.create(), Clock.system(), wiring);
  }

  @Test
  void standbyTakesOverWithin15sKeepsProgressAndMetadataSurvivesAFullRestart() throws Exception {
    int mvJob;
    CatalogState before;
    try (ZkFixture zk = new ZkFixture(zkData.toFile())) {
      CuratorFramework nodeClient = zk.newClient();
      NodeRegistry nodes = new NodeRegistry(nodeClient, new MetaPaths(CLUSTER));
      nodes.register(new NodeInfo("compute", "compute-1:5688", 1, 2, 0));
      MetaServer a = start(zk, "meta-a");
      awaitTrue("a leads", 10_000, () -> a.isLeader() && a.isReady());
      MetaServer b = start(zk, "meta-b");
      awaitTrue("b is a ready standby", 10_000, () -> !b.isLeader() && b.isReady());

      int schema =
          a.catalog()
              .orElseThrow()
              .find(1, CatalogCore.DEFAULT_SCHEMA, ObjectKind.SCHEMA)
              .orElseThrow()
              .id();
      var ids =
          (DdlReply.IdsReserved)
              a.ddl().submit(new DdlCommand.ReserveIds(4)).get(5, TimeUnit.SECONDS);
      versions.setKeyCount(ids.from() + 1, 1200);
      a.ddl()
          .submit(
              BarrierFailoverTest.create(
                  ObjectKind.TABLE, schema, "t", Plans.sourceTable(ids.from(), ids.from() + 1)))
          .get(5, TimeUnit.SECONDS);
      var mv =
          (DdlReply.JobAccepted)
              a.ddl()
                  .submit(
                      BarrierFailoverTest.create(
                          ObjectKind.MATERIALIZED_VIEW,
                          schema,
                          "mv",
                          Plans.mvOnMv(ids.from() + 1, ids.from() + 2, ids.from() + 3)))
                  .get(5, TimeUnit.SECONDS);
      mvJob = mv.job().jobId();
      compute.addBackfillActors(
          mv.graph().actors().stream().map(FragmentGraph.Actor::actorId).toList());
      awaitTrue("backfill at 25% under a", 20_000, () -> last("meta-a") >= 0.25);

      double atStop = last("meta-a");
      long stoppedAt = System.nanoTime();
      a.close();
      awaitTrue("b leads", 15_000, () -> b.isLeader() && b.isReady());
      long takeoverMs = (System.nanoTime() - stoppedAt) / 1_000_000;
      assertThat(takeoverMs).as("takeover time").isLessThan(15_000);
      awaitTrue("b reports progress", 15_000, () -> last("meta-b") >= 0);
      int firstB = sampleLeaders.indexOf("meta-b");
      assertThat(samples.get(firstB).displayRatio())
          .as("progress restored from ZooKeeper, not reset to zero")
          .isGreaterThanOrEqualTo(atStop)
          .isGreaterThan(0);
      awaitTrue(
          "mv created under b",
          30_000,
          () -> b.catalog().orElseThrow().jobs().get(mvJob).status() == JobStatus.CREATED);
      for (int i = 1; i < samples.size(); i++) {
        if (samples.get(i).jobId() == mvJob && samples.get(i - 1).jobId() == mvJob) {
          assertThat(samples.get(i).displayRatio())
              .isGreaterThanOrEqualTo(samples.get(i - 1).displayRatio());
        }
      }
      before = b.catalog().orElseThrow();
      b.close();
      nodes.close();
      nodeClient.close();
    }
    // every process and ZooKeeper are down; start again from ZooKeeper's data directory
    try (ZkFixture zk = new ZkFixture(zkData.toFile());
        MetaServer c = start(zk, "meta-c")) {
      awaitTrue("c leads", 10_000, () -> c.isLeader() && c.isReady());
      CatalogState after = c.catalog().orElseThrow();
      assertThat(after.objects()).isEqualTo(before.objects());
      assertThat(after.jobs().keySet()).isEqualTo(before.jobs().keySet());
      assertThat(after.jobs().get(mvJob).status()).isEqualTo(JobStatus.CREATED);
      assertThat(after.fragments().get(mvJob).actors())
          .isEqualTo(before.fragments().get(mvJob).actors());
      // b may commit one more epoch between the snapshot above and its close: nothing committed
      // is lost, so the pointer is where b's snapshot had it or later
      assertThat(after.versionPointer()).isPresent();
      assertThat(after.versionPointer().orElseThrow().versionId())
          .isGreaterThanOrEqualTo(before.versionPointer().orElseThrow().versionId());
      assertThat(after.versionPointer().orElseThrow().maxCommittedEpoch())
          .isGreaterThanOrEqualTo(before.versionPointer().orElseThrow().maxCommittedEpoch());
      assertThat(after.nextId()).isEqualTo(before.nextId());
    }
  }

  double last(String leader) {
    double r = -1;
    for (int i = 0; i < samples.size(); i++) {
      if (sampleLeaders.get(i).equals(leader)) {
        r = samples.get(i).displayRatio();
      }
    }
    return r;
  }
}
