package dev.tideway.meta.barrier;

import static dev.tideway.meta.cluster.ZkFixture.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.barrier.global.BarrierConfig;
import dev.tideway.barrier.progress.ProgressConfig;
import dev.tideway.common.time.Clock;
import dev.tideway.meta.MetaConfig;
import dev.tideway.meta.MetaServer;
import dev.tideway.meta.catalog.CatalogCore;
import dev.tideway.meta.cluster.ZkFixture;
import dev.tideway.meta.fragment.Plans;
import dev.tideway.protocol.catalog.FragmentGraph;
import dev.tideway.protocol.catalog.JobStatus;
import dev.tideway.protocol.catalog.KryoPlanCodec;
import dev.tideway.protocol.catalog.NodeInfo;
import dev.tideway.protocol.catalog.ObjectKind;
import dev.tideway.protocol.meta.DdlCommand;
import dev.tideway.protocol.meta.DdlReply;
import dev.tideway.protocol.store.MetaPaths;
import dev.tideway.protocol.store.NodeRegistry;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;

/**
 * A compute node is lost mid-backfill: the leader recovers (cause {@code node_lost}), moves the
 * node's actors to the surviving node, resets, and the MV still becomes CREATED.
 */
class NodeLossRecoveryTest {
  @Test
  void actorsOfALostNodeAreRebuiltOnALiveOne() throws Exception {
    FakeCompute compute = new FakeCompute(2, 300);
    FakeVersions versions = new FakeVersions();
    try (ZkFixture zk = new ZkFixture()) {
      CuratorFramework c1 = zk.newClient();
      CuratorFramework c2 = zk.newClient();
      NodeRegistry n1 = new NodeRegistry(c1, new MetaPaths("loss"));
      NodeRegistry n2 = new NodeRegistry(c2, new MetaPaths("loss"));
      n1.register(new NodeInfo("compute", "compute-1:5688", 1, 2, 0));
      n2.register(new NodeInfo("compute", "compute-2:5688", 2, 2, 0));
      var wiring =
          new BarrierRunner.Wiring<String>(
              new BarrierConfig(20, 1, 4, 10_000),
              ProgressConfig.DEFAULT,
              m -> compute.clientFor(m::onCompleted),
              versions,
              u -> {},
              new RecoveryBackoff(50, 500, 2),
              BarrierObserver.NONE,
              java.util.List.of());
      MetaConfig config =
          new MetaConfig(
              "loss", zk.connectString(), "meta-a", "meta-a:5690", "127.0.0.1", 0, 2_000, 10_000);
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
                meta.ddl().submit(new DdlCommand.ReserveIds(4)).get(5, TimeUnit.SECONDS);
        versions.setKeyCount(ids.from() + 1, 600);
        meta.ddl()
            .submit(
                BarrierFailoverTest.create(
                    ObjectKind.TABLE, schema, "t", Plans.sourceTable(ids.from(), ids.from() + 1)))
            .get(5, TimeUnit.SECONDS);
        var mv =
            (DdlReply.JobAccepted)
                meta.ddl()
                    .submit(
                        BarrierFailoverTest.create(
                            ObjectKind.MATERIALIZED_VIEW,
                            schema,
                            "mv",
                            Plans.mvOnMv(ids.from() + 1, ids.from() + 2, ids.from() + 3)))
                    .get(5, TimeUnit.SECONDS);
        int job = mv.job().jobId();
        compute.addBackfillActors(
            mv.graph().actors().stream().map(FragmentGraph.Actor::actorId).toList());
        assertThat(mv.graph().actors()).anyMatch(a -> a.node().equals("compute-1:5688"));
        awaitTrue("backfilling", 20_000, () -> meta.progress().containsKey((long) job));
        int resetsBefore = compute.resets.get();

        n1.close(); // its registration goes; membership reports the loss
        c1.close();
        meta.barrierManager().orElseThrow().onNodeLost("compute-1:5688", "unreachable");

        awaitTrue("reset after the loss", 10_000, () -> compute.resets.get() > resetsBefore);
        awaitTrue(
            "actors moved to compute-2",
            10_000,
            () ->
                meta.catalog().orElseThrow().fragments().values().stream()
                    .flatMap(g -> g.actors().stream())
                    .allMatch(a -> a.node().equals("compute-2:5688")));
        awaitTrue(
            "mv created",
            30_000,
            () -> meta.catalog().orElseThrow().jobs().get(job).status() == JobStatus.CREATED);
        assertThat(MetaServerRunsBarrierLoopTest.get(meta, "/metrics"))
            .contains("tideway_recovery_total{cause=\"node_lost\"} 1");
      } finally {
        n2.close();
        c2.close();
      }
    }
  }
}
