package dev.tideway.meta.barrier;

import static dev.tideway.meta.cluster.ZkFixture.awaitTrue;

import dev.tideway.barrier.global.BarrierConfig;
import dev.tideway.barrier.progress.ProgressConfig;
import dev.tideway.common.time.Clock;
import dev.tideway.meta.MetaConfig;
import dev.tideway.meta.MetaServer;
import dev.tideway.meta.catalog.CatalogCore;
import dev.tideway.meta.cluster.ZkFixture;
import dev.tideway.meta.fragment.Plans;
import dev.tideway.protocol.catalog.KryoPlanCodec;
import dev.tideway.protocol.catalog.NodeInfo;
import dev.tideway.protocol.catalog.ObjectKind;
import dev.tideway.protocol.meta.DdlCommand;
import dev.tideway.protocol.meta.DdlReply;
import dev.tideway.protocol.store.MetaPaths;
import dev.tideway.protocol.store.NodeRegistry;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;

/**
 * A ready leader {@link MetaServer} over an in-process ZooKeeper, one registered compute node
 * ({@code compute-1}, served by the test's {@link FakeCompute} through {@code wiring}), and one
 * running table {@code t} of {@code tableKeys} keys in the test's {@link FakeVersions}; four ids
 * are reserved, {@code from() + 1} being the table. Shared by the barrier tests that need a job on
 * a live meta service.
 */
final class OneTableMeta {
  interface Body {
    void run(MetaServer meta, CuratorFramework zk, int schema, DdlReply.IdsReserved ids)
        throws Exception;
  }

  private OneTableMeta() {}

  /**
   * The wiring of a loop over {@code compute} and {@code versions}: 20 ms barriers, each a
   * checkpoint.
   */
  static BarrierRunner.Wiring<String> wiring(FakeCompute compute, FakeVersions versions) {
    return new BarrierRunner.Wiring<>(
        new BarrierConfig(20, 1, 4, 10_000),
        ProgressConfig.DEFAULT,
        m -> compute.clientFor(m::onCompleted),
        versions,
        u -> {});
  }

  static void run(
      String cluster,
      BarrierRunner.Wiring<String> wiring,
      KryoPlanCodec codec,
      FakeCompute compute,
      FakeVersions versions,
      long tableKeys,
      Body body)
      throws Exception {
    try (ZkFixture zk = new ZkFixture()) {
      CuratorFramework client = zk.newClient();
      NodeRegistry nodes = new NodeRegistry(client, new MetaPaths(cluster));
      nodes.register(new NodeInfo("compute", "compute-1:5688", 1, 2, 0));
      MetaConfig config =
          new MetaConfig(
              cluster, zk.connectString(), "meta-a", "meta-a:5690", "127.0.0.1", 0, 2_000, 10_000);
      try (MetaServer meta = MetaServer.start(config, codec, Clock.system(), wiring)) {
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
        versions.setKeyCount(ids.from() + 1, tableKeys);
        meta.ddl()
            .submit(
                BarrierFailoverTest.create(
                    ObjectKind.TABLE, schema, "t", Plans.sourceTable(ids.from(), ids.from() + 1)))
            .get(5, TimeUnit.SECONDS);
        awaitTrue("table running", 10_000, () -> compute.resets.get() > 0);
        body.run(meta, client, schema, ids);
      } finally {
        nodes.close();
        client.close();
      }
    }
  }
}
