package dev.tideway.meta.barrier;

import static dev.tideway.meta.cluster.ZkFixture.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.barrier.global.BarrierConfig;
import dev.tideway.barrier.progress.ProgressConfig;
import dev.tideway.common.time.Clock;
import dev.tideway.meta.MetaConfig;
import dev.tideway.meta.MetaServer;
import dev.tideway.meta.catalog.CatalogCore;
import dev.tideway.meta.catalog.DdlCommand;
import dev.tideway.meta.catalog.DdlReply;
import dev.tideway.meta.cluster.MetaPaths;
import dev.tideway.meta.cluster.NodeRegistry;
import dev.tideway.meta.cluster.ZkFixture;
import dev.tideway.meta.fragment.KryoPlanCodec;
import dev.tideway.meta.fragment.Plans;
import dev.tideway.meta.metadata.NodeInfo;
import dev.tideway.meta.metadata.ObjectKind;
import dev.tideway.meta.metadata.RecoveryLog;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;

/**
 * The storage commit of a checkpoint fails (an object-store error whose outcome may be unknown):
 * the leader must not go on as if the epoch were committed (later checkpoints would commit around a
 * hole), nor reset the nodes on a guess. Its barrier loop halts: no further barrier, commit or
 * reset, and the recovery log keeps no base above the durable version.
 */
class CheckpointCommitFailureTest {
  @Test
  void aFailedStorageCommitHaltsTheLoopInsteadOfCommittingAroundIt() throws Exception {
    FakeCompute compute = new FakeCompute(1, 300);
    FakeVersions versions = new FakeVersions();
    try (ZkFixture zk = new ZkFixture()) {
      CuratorFramework client = zk.newClient();
      NodeRegistry nodes = new NodeRegistry(client, new MetaPaths("commit-fail"));
      nodes.register(new NodeInfo("compute", "compute-1:5688", 1, 2, 0));
      var wiring =
          new BarrierRunner.Wiring<String>(
              new BarrierConfig(20, 1, 4, 10_000),
              ProgressConfig.DEFAULT,
              m -> compute.clientFor(m::onCompleted),
              versions,
              u -> {},
              new RecoveryBackoff(50, 500, 2),
              BarrierObserver.NONE,
              List.of());
      MetaConfig config =
          new MetaConfig(
              "commit-fail",
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
        meta.ddl()
            .submit(
                BarrierFailoverTest.create(
                    ObjectKind.TABLE, schema, "t", Plans.sourceTable(ids.from(), ids.from() + 1)))
            .get(5, TimeUnit.SECONDS);
        awaitTrue("table running", 10_000, () -> compute.resets.get() > 0);
        awaitTrue("checkpoints commit", 10_000, () -> versions.durableEpoch() > 0);
        int resets = compute.resets.get();

        versions.failCommits.set(1);
        awaitTrue("the failing commit was tried", 10_000, () -> versions.failCommits.get() == 0);
        long durable = versions.durableEpoch();
        long committedBefore = meta.barrierManager().orElseThrow().committedEpoch();
        Thread.sleep(1_000); // ~50 barrier intervals
        assertThat(versions.durableEpoch())
            .as("nothing commits around the failed epoch")
            .isEqualTo(durable);
        assertThat(meta.barrierManager().orElseThrow().committedEpoch())
            .as("the published committed epoch stays at the durable one")
            .isEqualTo(committedBefore)
            .isLessThanOrEqualTo(durable);
        assertThat(compute.resets.get()).as("no reset on a guessed epoch").isEqualTo(resets);
        List<RecoveryLog.Entry> log = meta.catalog().orElseThrow().recoveries().entries();
        assertThat(log.get(log.size() - 1).baseEpoch()).isLessThanOrEqualTo(durable);
      } finally {
        nodes.close();
        client.close();
      }
    }
  }
}
