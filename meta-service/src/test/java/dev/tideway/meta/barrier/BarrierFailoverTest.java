package dev.tideway.meta.barrier;

import static dev.tideway.meta.cluster.ZkFixture.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.barrier.global.BarrierConfig;
import dev.tideway.barrier.progress.JobProgress;
import dev.tideway.barrier.progress.ProgressConfig;
import dev.tideway.common.time.Clock;
import dev.tideway.meta.catalog.CatalogCore;
import dev.tideway.meta.catalog.DdlService;
import dev.tideway.meta.cluster.FencedMetaStore;
import dev.tideway.meta.cluster.LeaderElector;
import dev.tideway.meta.cluster.LeaderTerm;
import dev.tideway.meta.cluster.LeadershipListener;
import dev.tideway.meta.cluster.ZkFixture;
import dev.tideway.meta.fragment.Plans;
import dev.tideway.meta.schedule.Worker;
import dev.tideway.protocol.catalog.CatalogState;
import dev.tideway.protocol.catalog.CreateType;
import dev.tideway.protocol.catalog.FragmentGraph;
import dev.tideway.protocol.catalog.JobStatus;
import dev.tideway.protocol.catalog.LeaderInfo;
import dev.tideway.protocol.catalog.ObjectKind;
import dev.tideway.protocol.meta.DdlCommand;
import dev.tideway.protocol.meta.DdlReply;
import dev.tideway.protocol.store.MetaPaths;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;

/**
 * A backfilling MV survives a meta failover: the standby takes over, restores the progress tracker
 * from ZooKeeper (no drop to zero), carries the job to CREATED, and progress never goes backwards.
 */
class BarrierFailoverTest {
  static final MetaPaths PATHS = new MetaPaths("barrier-test");
  static final BarrierConfig FAST = new BarrierConfig(20, 1, 4, 10_000);

  final FakeCompute compute = new FakeCompute(5, 500);
  final FakeVersions versions = new FakeVersions();

  /** (leader, job progress) of every commit, in order. */
  final List<String> leaders = new CopyOnWriteArrayList<>();

  final List<JobProgress> samples = new CopyOnWriteArrayList<>();

  final class Meta implements LeadershipListener, AutoCloseable {
    final String name;
    final CuratorFramework client;
    final DdlService ddl;
    final LeaderElector elector;
    volatile GlobalBarrierManager<String> barrier;

    Meta(ZkFixture zk, String name) throws Exception {
      this.name = name;
      client = zk.newClient();
      LeaderElector[] e = new LeaderElector[1];
      FencedMetaStore store = new FencedMetaStore(client, PATHS, () -> e[0].currentTerm());
      store.ensureLayout();
      ddl =
          new DdlService(
              store,
              new CatalogCore(Plans.OPERATOR_IDS),
              () -> List.of(new Worker("c1", 2)),
              Clock.system());
      elector =
          e[0] =
              new LeaderElector(
                  client, PATHS, name, new LeaderInfo(name, "", 0), this, Clock.system());
      elector.start();
    }

    @Override
    public void onElected(LeaderTerm term) {
      ddl.onElected(term);
      GlobalBarrierManager<String>[] self = new GlobalBarrierManager[1];
      var deps =
          new GlobalBarrierManager.Deps<String>(
              FAST,
              ProgressConfig.DEFAULT,
              Clock.system(),
              compute.clientFor(c -> self[0].onCompleted(c)),
              versions,
              ddl,
              u ->
                  u.jobs()
                      .forEach(
                          p -> {
                            leaders.add(name);
                            samples.add(p);
                          }));
      self[0] = new GlobalBarrierManager<>(deps, term);
      barrier = self[0];
      barrier.start();
    }

    @Override
    public void onDeposed(LeaderTerm term, String reason) {
      if (barrier != null) {
        barrier.close();
      }
      ddl.onDeposed(term, reason);
    }

    CatalogState state() {
      return ddl.snapshot().orElseThrow();
    }

    @Override
    public void close() throws Exception {
      elector.close();
      ddl.close();
      client.close();
    }
  }

  @Test
  void standbyTakesOverMidBackfillWithoutLosingProgress() throws Exception {
    try (ZkFixture zk = new ZkFixture()) {
      Meta a = new Meta(zk, "meta-a");
      awaitTrue("a leads", 10_000, () -> a.ddl.snapshot().isPresent());
      Meta b = new Meta(zk, "meta-b");
      int schema =
          a.state().find(1, CatalogCore.DEFAULT_SCHEMA, ObjectKind.SCHEMA).orElseThrow().id();

      var ids =
          (DdlReply.IdsReserved)
              a.ddl.submit(new DdlCommand.ReserveIds(4)).get(5, TimeUnit.SECONDS);
      int table = ids.from() + 1;
      versions.setKeyCount(table, 1000);
      a.ddl
          .submit(create(ObjectKind.TABLE, schema, "t", Plans.sourceTable(ids.from(), table)))
          .get(5, TimeUnit.SECONDS);
      var mv =
          (DdlReply.JobAccepted)
              a.ddl
                  .submit(
                      create(
                          ObjectKind.MATERIALIZED_VIEW,
                          schema,
                          "mv",
                          Plans.mvOnMv(table, ids.from() + 2, ids.from() + 3)))
                  .get(5, TimeUnit.SECONDS);
      int mvJob = mv.job().jobId();
      List<Integer> backfillActors =
          mv.graph().actors().stream().map(FragmentGraph.Actor::actorId).toList();
      compute.addBackfillActors(backfillActors);
      assertThat(backfillActors).hasSize(2);
      assertThat(a.state().jobs().get(mvJob).status()).isEqualTo(JobStatus.CREATING);

      try {
        awaitTrue("mv at 30%", 20_000, () -> ratioOf(mvJob, "meta-a") >= 0.3);
      } catch (AssertionError e) {
        throw new AssertionError(
            e.getMessage()
                + "; commits="
                + versions.committed.size()
                + " injects="
                + compute.injects.size()
                + " samples="
                + samples
                + " jobs="
                + a.state().jobs().values(),
            e);
      }
      double beforeFailover = ratioOf(mvJob, "meta-a");
      a.close();
      awaitTrue("b leads", 10_000, () -> b.elector.isLeader() && b.ddl.snapshot().isPresent());
      awaitTrue("b committed progress", 10_000, () -> ratioOf(mvJob, "meta-b") >= 0);
      awaitTrue(
          "mv created", 30_000, () -> b.state().jobs().get(mvJob).status() == JobStatus.CREATED);

      // no drop to zero, never backwards, across both leaders
      List<Double> ratios =
          samples.stream().filter(p -> p.jobId() == mvJob).map(JobProgress::displayRatio).toList();
      for (int i = 1; i < ratios.size(); i++) {
        assertThat(ratios.get(i))
            .as("progress sample %s of %s", i, ratios)
            .isGreaterThanOrEqualTo(ratios.get(i - 1));
      }
      double firstAfter = samples.get(leaders.indexOf("meta-b")).displayRatio();
      assertThat(firstAfter).isGreaterThanOrEqualTo(beforeFailover);
      assertThat(ratios.get(ratios.size() - 1)).isEqualTo(1.0);
      assertThat(compute.lastGeneration())
          .as("b reset the nodes with its own, higher generation")
          .isGreaterThan(1L << 32);
      for (int i = 1; i < versions.committed.size(); i++) {
        assertThat(versions.committed.get(i)).isGreaterThan(versions.committed.get(i - 1));
      }
      // the persisted pointer names a version the committer made durable (committed first)
      assertThat(versions.committed)
          .contains(b.state().versionPointer().orElseThrow().maxCommittedEpoch());
      b.close();
    }
  }

  double ratioOf(int jobId, String leader) {
    double r = -1;
    for (int i = 0; i < samples.size(); i++) {
      if (samples.get(i).jobId() == jobId && leaders.get(i).equals(leader)) {
        r = samples.get(i).displayRatio();
      }
    }
    return r;
  }

  static DdlCommand create(
      ObjectKind kind, int schema, String name, dev.tideway.common.plan.StreamPlanNode plan) {
    return new DdlCommand.CreateStreamingJob(
        kind, schema, name, "CREATE " + kind + " " + name, plan, CreateType.BACKGROUND);
  }
}
