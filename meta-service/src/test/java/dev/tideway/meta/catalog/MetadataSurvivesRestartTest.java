package dev.tideway.meta.catalog;

import static dev.tideway.meta.cluster.ZkFixture.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.common.time.Clock;
import dev.tideway.meta.cluster.FencedMetaStore;
import dev.tideway.meta.cluster.LeaderElector;
import dev.tideway.meta.cluster.LeaderTerm;
import dev.tideway.meta.cluster.LeadershipListener;
import dev.tideway.meta.cluster.MetaWrite;
import dev.tideway.meta.cluster.ZkFixture;
import dev.tideway.meta.metadata.MetadataSamples;
import dev.tideway.protocol.catalog.CatalogChange;
import dev.tideway.protocol.catalog.CatalogState;
import dev.tideway.protocol.catalog.LeaderInfo;
import dev.tideway.protocol.store.CatalogLoader;
import dev.tideway.protocol.store.MetaPaths;
import dev.tideway.protocol.store.NodeRegistry;
import java.nio.file.Path;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** All metadata written by a leader is read back after every process and ZooKeeper restarted. */
class MetadataSurvivesRestartTest {
  static final MetaPaths PATHS = new MetaPaths("restart-test");

  static final List<CatalogChange> CHANGES =
      List.of(
          new CatalogChange.PutParams(MetadataSamples.PARAMS),
          new CatalogChange.PutObject(MetadataSamples.MV),
          new CatalogChange.PutJob(MetadataSamples.JOB),
          new CatalogChange.PutJob(MetadataSamples.PAUSED_JOB),
          new CatalogChange.PutFragments(MetadataSamples.GRAPH),
          new CatalogChange.PutVersionPointer(MetadataSamples.POINTER),
          new CatalogChange.PutNextId(MetadataSamples.NEXT_ID),
          new CatalogChange.PutRecoveryLog(MetadataSamples.RECOVERIES));

  /** A meta process: client, elector, store. */
  record Meta(CuratorFramework client, LeaderElector elector, FencedMetaStore store) {
    static Meta start(ZkFixture zk) throws Exception {
      CuratorFramework c = zk.newClient();
      LeadershipListener quiet =
          new LeadershipListener() {
            @Override
            public void onElected(LeaderTerm term) {}

            @Override
            public void onDeposed(LeaderTerm term, String reason) {}
          };
      LeaderElector e =
          new LeaderElector(c, PATHS, "meta", new LeaderInfo("m:1", "", 0), quiet, Clock.system());
      FencedMetaStore s = new FencedMetaStore(c, PATHS, e::currentTerm);
      s.ensureLayout();
      e.start();
      awaitTrue("leader", 10_000, e::isLeader);
      return new Meta(c, e, s);
    }

    void stop() throws Exception {
      elector.close();
      client.close();
    }
  }

  @Test
  void everythingReadsBackAfterAFullRestart(@TempDir Path dir) throws Exception {
    CatalogState written = CatalogState.empty();
    int firstEpoch;
    try (ZkFixture zk = new ZkFixture(dir.toFile())) {
      Meta meta = Meta.start(zk);
      firstEpoch = meta.elector().currentTerm().orElseThrow().epoch();
      NodeRegistry registry = new NodeRegistry(meta.client(), PATHS);
      registry.register(MetadataSamples.NODE);
      assertThat(registry.list("compute")).containsExactly(MetadataSamples.NODE);
      List<MetaWrite> writes = CHANGES.stream().map(c -> CatalogWrites.toWrite(c, PATHS)).toList();
      meta.store().commit(meta.elector().currentTerm().orElseThrow(), writes);
      for (CatalogChange c : CHANGES) {
        written = written.apply(c);
      }
      registry.close();
      meta.stop();
    }
    try (ZkFixture zk = new ZkFixture(dir.toFile())) {
      Meta meta = Meta.start(zk);
      CatalogState loaded = CatalogLoader.load(meta.store());
      assertThat(loaded.params()).isEqualTo(written.params());
      assertThat(loaded.objects()).isEqualTo(written.objects());
      assertThat(loaded.jobs()).isEqualTo(written.jobs());
      assertThat(loaded.fragments().get(7).fragments())
          .isEqualTo(written.fragments().get(7).fragments());
      assertThat(loaded.fragments().get(7).actors()).isEqualTo(written.fragments().get(7).actors());
      assertThat(loaded.versionPointer()).isEqualTo(written.versionPointer());
      assertThat(loaded.nextId()).isEqualTo(written.nextId());
      // ephemeral registrations died with their sessions; the new leader has a higher epoch
      assertThat(new NodeRegistry(meta.client(), PATHS).list("compute")).isEmpty();
      assertThat(meta.elector().currentTerm().orElseThrow().epoch()).isGreaterThan(firstEpoch);
      meta.stop();
    }
  }
}
