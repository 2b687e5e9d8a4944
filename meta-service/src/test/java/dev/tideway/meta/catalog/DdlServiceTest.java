package dev.tideway.meta.catalog;

import static dev.tideway.meta.cluster.ZkFixture.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tideway.common.time.Clock;
import dev.tideway.meta.cluster.FencedMetaStore;
import dev.tideway.meta.cluster.LeaderElector;
import dev.tideway.meta.cluster.ZkFixture;
import dev.tideway.meta.fragment.Plans;
import dev.tideway.meta.schedule.Worker;
import dev.tideway.protocol.catalog.CatalogState;
import dev.tideway.protocol.catalog.CreateType;
import dev.tideway.protocol.catalog.JobStatus;
import dev.tideway.protocol.catalog.LeaderInfo;
import dev.tideway.protocol.catalog.ObjectKind;
import dev.tideway.protocol.meta.DdlCommand;
import dev.tideway.protocol.meta.DdlReply;
import dev.tideway.protocol.meta.NotLeaderException;
import dev.tideway.protocol.store.CatalogLoader;
import dev.tideway.protocol.store.MetaPaths;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;

/** The DDL shell against ZooKeeper: persisted before replied, visible at once, kept on failover. */
class DdlServiceTest {
  static final MetaPaths PATHS = new MetaPaths("ddl-test");

  record Meta(CuratorFramework client, LeaderElector elector, DdlService ddl)
      implements AutoCloseable {
    static Meta start(ZkFixture zk, String name) throws Exception {
      CuratorFramework c = zk.newClient();
      LeaderElector[] e = new LeaderElector[1];
      FencedMetaStore store = new FencedMetaStore(c, PATHS, () -> e[0].currentTerm());
      store.ensureLayout();
      DdlService ddl =
          new DdlService(
              store,
              new CatalogCore(Plans.OPERATOR_IDS),
              () -> List.of(new Worker("c1", 2)),
              Clock.system());
      e[0] = new LeaderElector(c, PATHS, name, new LeaderInfo(name, "", 0), ddl, Clock.system());
      e[0].start();
      return new Meta(c, e[0], ddl);
    }

    @Override
    public void close() throws Exception {
      elector.close();
      ddl.close();
      client.close();
    }
  }

  @Test
  void jobIsPersistedAsCreatingAndSurvivesFailover() throws Exception {
    try (ZkFixture zk = new ZkFixture()) {
      Meta a = Meta.start(zk, "meta-a");
      awaitTrue("a leads with state", 10_000, () -> a.ddl().snapshot().isPresent());
      Meta b = Meta.start(zk, "meta-b");
      assertThatThrownBy(
              () -> b.ddl().submit(new DdlCommand.ReserveIds(1)).get(5, TimeUnit.SECONDS))
          .hasCauseInstanceOf(NotLeaderException.class);

      int jobId = createView(a.ddl(), CreateType.BACKGROUND);
      // visible at once, in memory and in ZooKeeper
      assertThat(a.ddl().snapshot().get().jobs().get(jobId).status()).isEqualTo(JobStatus.CREATING);
      FencedMetaStore reader = new FencedMetaStore(b.client(), PATHS, java.util.Optional::empty);
      assertThat(CatalogLoader.load(reader).jobs().get(jobId).status())
          .isEqualTo(JobStatus.CREATING);

      var waiter = a.ddl().awaitCreated(jobId);
      a.close();
      assertThatThrownBy(() -> waiter.get(5, TimeUnit.SECONDS))
          .as("a foreground waiter of a deposed leader is told to ask the new leader")
          .hasCauseInstanceOf(NotLeaderException.class);
      awaitTrue("b leads with state", 10_000, () -> b.ddl().snapshot().isPresent());
      CatalogState after = b.ddl().snapshot().get();
      assertThat(after.jobs().get(jobId).status()).isEqualTo(JobStatus.CREATING);
      assertThat(after.jobs().get(jobId).createType()).isEqualTo(CreateType.BACKGROUND);
      assertThat(after.fragments().get(jobId).actors()).hasSize(4);
      // the new leader carries on: ids continue, the job can be finished
      b.ddl().submit(new DdlCommand.FinishJob(jobId, new byte[0])).get(5, TimeUnit.SECONDS);
      assertThat(b.ddl().snapshot().get().jobs().get(jobId).status()).isEqualTo(JobStatus.CREATED);
      b.close();
    }
  }

  @Test
  void aRecoverysFailedCreateIsAnsweredOnceTheResetIsDone() throws Exception {
    try (ZkFixture zk = new ZkFixture();
        Meta a = Meta.start(zk, "meta-a")) {
      awaitTrue("a leads with state", 10_000, () -> a.ddl().snapshot().isPresent());
      int jobId = createView(a.ddl(), CreateType.FOREGROUND);
      var waiter = a.ddl().awaitCreated(jobId);

      a.ddl()
          .submitFailureAfterReset(new DdlCommand.FailJob(jobId, "'mv' failed: it kept failing"))
          .get(5, TimeUnit.SECONDS);
      assertThat(a.ddl().snapshot().get().jobs()).doesNotContainKey(jobId);
      // the job is gone, but its CREATE is answered only after the reset removed its actors
      a.ddl().submit(new DdlCommand.ReserveIds(1)).get(5, TimeUnit.SECONDS);
      assertThat(waiter).isNotDone();

      a.ddl().releaseHeldFailures();
      assertThatThrownBy(() -> waiter.get(5, TimeUnit.SECONDS))
          .hasMessageContaining("'mv' failed: it kept failing");
    }
  }

  /** Creates job "mv" (a count by key over a fresh table) through {@code ddl}; its job id. */
  private static int createView(DdlService ddl, CreateType type) throws Exception {
    DdlReply.IdsReserved ids =
        (DdlReply.IdsReserved) ddl.submit(new DdlCommand.ReserveIds(3)).get(5, TimeUnit.SECONDS);
    int schema =
        ddl.snapshot()
            .get()
            .find(1, CatalogCore.DEFAULT_SCHEMA, ObjectKind.SCHEMA)
            .orElseThrow()
            .id();
    DdlReply reply =
        ddl.submit(
                new DdlCommand.CreateStreamingJob(
                    ObjectKind.MATERIALIZED_VIEW,
                    schema,
                    "mv",
                    "CREATE MATERIALIZED VIEW mv",
                    Plans.countByK(ids.from(), ids.from() + 1, ids.from() + 2),
                    type))
            .get(5, TimeUnit.SECONDS);
    return ((DdlReply.JobAccepted) reply).job().jobId();
  }
}
