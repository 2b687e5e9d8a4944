package dev.tideway.meta.barrier;

import static dev.tideway.meta.cluster.ZkFixture.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.barrier.control.NodeFailure;
import dev.tideway.barrier.global.BarrierConfig;
import dev.tideway.barrier.message.Mutation;
import dev.tideway.barrier.progress.JobProgress;
import dev.tideway.barrier.progress.ProgressConfig;
import dev.tideway.common.plan.StreamNode;
import dev.tideway.common.plan.StreamPlanNode;
import dev.tideway.meta.MetaServer;
import dev.tideway.meta.cluster.FencedMetaStore;
import dev.tideway.meta.fragment.Plans;
import dev.tideway.protocol.catalog.FragmentGraph;
import dev.tideway.protocol.catalog.JobStatus;
import dev.tideway.protocol.catalog.KryoPlanCodec;
import dev.tideway.protocol.catalog.ObjectKind;
import dev.tideway.protocol.meta.DdlCommand;
import dev.tideway.protocol.meta.DdlReply;
import dev.tideway.protocol.meta.DdlReply.BackfillThrottled.Applied;
import dev.tideway.protocol.store.CatalogLoader;
import dev.tideway.protocol.store.MetaPaths;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;

/**
 * {@code ALTER MATERIALIZED VIEW ... SET BACKFILL_RATE_LIMIT} on a running job, through a wired
 * {@link MetaServer} over ZooKeeper and {@link FakeCompute}: a limit of 0 holds the backfill while
 * checkpoints keep committing, raising it lets the job finish, the limit is persisted in the
 * fragment graph so a recovery rebuilds the actors with it, and a limit set while the job's actors
 * are still being built rides right behind their {@code Add}.
 */
class BackfillThrottleTest {
  static final String CLUSTER = "throttle";
  final FakeCompute compute = new FakeCompute(5, 600);
  final FakeVersions versions = new FakeVersions();

  void withMeta(OneTableMeta.Body body) throws Exception {
    KryoPlanCodec codec = KryoPlanCodec.create();
    compute.codec = codec;
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
    OneTableMeta.run(CLUSTER, wiring, codec, compute, versions, 600, body);
  }

  static DdlReply.JobAccepted createMv(MetaServer meta, int schema, DdlReply.IdsReserved ids)
      throws Exception {
    return (DdlReply.JobAccepted)
        meta.ddl()
            .submit(
                BarrierFailoverTest.create(
                    ObjectKind.MATERIALIZED_VIEW,
                    schema,
                    "mv",
                    Plans.mvOnMv(ids.from() + 1, ids.from() + 2, ids.from() + 3)))
            .get(5, TimeUnit.SECONDS);
  }

  static DdlReply.BackfillThrottled throttle(MetaServer meta, int job, long rate) throws Exception {
    DdlReply r = meta.setBackfillRateLimit(job, rate).get(10, TimeUnit.SECONDS);
    assertThat(r).isInstanceOf(DdlReply.BackfillThrottled.class);
    return (DdlReply.BackfillThrottled) r;
  }

  static long consumed(MetaServer meta, int job) {
    JobProgress p = meta.progress().get((long) job);
    return p == null ? -1 : p.consumedRows();
  }

  /** The consumed rows meta reports at each of the next {@code n} commits. */
  List<Long> consumedOverCommits(MetaServer meta, int job, int n) throws Exception {
    List<Long> seen = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      int before = versions.committed.size();
      awaitTrue("a checkpoint commits", 5_000, () -> versions.committed.size() > before);
      seen.add(consumed(meta, job));
    }
    return seen;
  }

  /** The scan rate limits in job {@code job}'s fragment graph as ZooKeeper holds it. */
  static List<Long> persistedRates(CuratorFramework zk, int job) {
    var reader = new FencedMetaStore(zk, new MetaPaths(CLUSTER), Optional::empty);
    FragmentGraph g = CatalogLoader.load(reader).fragments().get(job);
    KryoPlanCodec codec = KryoPlanCodec.create();
    List<Long> out = new ArrayList<>();
    g.fragments().forEach(f -> collectRates(codec.decode(f.body()), out));
    return out;
  }

  private static void collectRates(StreamPlanNode n, List<Long> out) {
    if (n.node() instanceof StreamNode.StreamScan s) {
      out.add(s.rateLimit());
    }
    n.inputs().forEach(in -> collectRates(in, out));
  }

  static void awaitCreated(MetaServer meta, int job) throws Exception {
    meta.ddl().awaitCreated(job).get(30, TimeUnit.SECONDS);
    awaitTrue(
        "job " + job + " created",
        5_000,
        () -> meta.catalog().orElseThrow().jobs().get(job).status() == JobStatus.CREATED);
  }

  @Test
  void rateZeroHoldsTheBackfillWhileCheckpointsCommitAndARaiseFinishesIt() throws Exception {
    withMeta(
        (meta, zk, schema, ids) -> {
          var mv = createMv(meta, schema, ids);
          int job = mv.job().jobId();
          compute.addBackfillActors(List.copyOf(JobBuildTest.actorsOf(mv.graph())));
          awaitTrue("backfilling", 10_000, () -> consumed(meta, job) > 0);

          DdlReply.BackfillThrottled paused = throttle(meta, job, 0);
          assertThat(paused.applied()).isEqualTo(Applied.CHECKPOINT);
          assertThat(paused.epoch()).isPositive();
          assertThat(persistedRates(zk, job)).containsOnly(0L);
          long held = consumed(meta, job);
          assertThat(held)
              .as("paused before the backfill finished")
              .isBetween(1L, 600L * mv.graph().actors().size() - 1);
          assertThat(consumedOverCommits(meta, job, 10))
              .as("consumed rows at each commit while limited to 0")
              .containsOnly(held);
          assertThat(meta.catalog().orElseThrow().jobs().get(job).status())
              .isEqualTo(JobStatus.CREATING);
          assertThat(compute.mutations)
              .filteredOn(m -> m instanceof Mutation.Throttle)
              .first()
              .isEqualTo(
                  new Mutation.Throttle(
                      JobBuildTest.actorsOf(mv.graph()).stream()
                          .collect(java.util.stream.Collectors.toMap(a -> a, a -> 0L))));

          DdlReply.BackfillThrottled raised = throttle(meta, job, 2);
          assertThat(raised.epoch()).isGreaterThan(paused.epoch());
          List<Long> slow = consumedOverCommits(meta, job, 5);
          int actors = mv.graph().actors().size();
          assertThat(slow.get(4))
              .as("2 rows per barrier and actor")
              .isBetween(held + 1, held + 2L * 10 * actors);
          throttle(meta, job, DdlCommand.SetBackfillRateLimit.UNLIMITED);
          awaitCreated(meta, job);
          assertThat(persistedRates(zk, job)).containsOnly(-1L);
        });
  }

  @Test
  void thePersistedRateSurvivesARecovery() throws Exception {
    withMeta(
        (meta, zk, schema, ids) -> {
          var mv = createMv(meta, schema, ids);
          int job = mv.job().jobId();
          compute.addBackfillActors(List.copyOf(JobBuildTest.actorsOf(mv.graph())));
          awaitTrue("backfilling", 10_000, () -> consumed(meta, job) > 0);
          throttle(meta, job, 0);
          long held = consumed(meta, job);

          int resets = compute.resets.get();
          meta.barrierManager()
              .orElseThrow()
              .onNodeFailure(
                  new NodeFailure(
                      1, compute.lastGeneration(), 0, "injected actor failure", List.of()));
          awaitTrue("recovered", 10_000, () -> compute.resets.get() > resets);
          JobBuildTest.actorsOf(mv.graph())
              .forEach(a -> assertThat(compute.rateOf(a)).as("actor %s rebuilt with", a).isZero());
          // the actors stay silent for a few barriers after a reset; then they would read
          assertThat(consumedOverCommits(meta, job, FakeCompute.SILENT_BARRIERS_AFTER_RESET + 10))
              .as("consumed rows after the recovery, still limited to 0")
              .containsOnly(held);

          throttle(meta, job, DdlCommand.SetBackfillRateLimit.UNLIMITED);
          awaitCreated(meta, job);
        });
  }

  @Test
  void aRateSetWhileTheActorsAreBuiltRidesBehindTheirAdd() throws Exception {
    CompletableFuture<Void> build = new CompletableFuture<>();
    withMeta(
        (meta, zk, schema, ids) -> {
          compute.builder = g -> build;
          var mv = createMv(meta, schema, ids);
          int job = mv.job().jobId();
          compute.addBackfillActors(List.copyOf(JobBuildTest.actorsOf(mv.graph())));
          CompletableFuture<DdlReply> reply = meta.setBackfillRateLimit(job, 0);
          int n = compute.injects.size();
          awaitTrue("barriers flow", 5_000, () -> compute.injects.size() > n + 5);
          assertThat(reply).as("no Throttle before the job's Add").isNotDone();
          assertThat(compute.mutations).noneMatch(m -> m instanceof Mutation.Throttle);

          build.complete(null);
          var done = (DdlReply.BackfillThrottled) reply.get(10, TimeUnit.SECONDS);
          assertThat(done.applied()).isEqualTo(Applied.CHECKPOINT);
          List<Mutation> order =
              compute.mutations.stream()
                  .filter(m -> m instanceof Mutation.Add || m instanceof Mutation.Throttle)
                  .toList();
          assertThat(order.get(order.size() - 2)).isInstanceOf(Mutation.Add.class);
          assertThat(order.get(order.size() - 1)).isInstanceOf(Mutation.Throttle.class);
          consumedOverCommits(meta, job, 5);
          JobBuildTest.actorsOf(mv.graph())
              .forEach(
                  a ->
                      assertThat(compute.rowsOf(a))
                          .as("actor %s read only at its Add and its Throttle barrier", a)
                          .isLessThanOrEqualTo(10));
        });
  }

  @Test
  void onlyACreatingJobWithABackfillCanBeThrottled() throws Exception {
    withMeta(
        (meta, zk, schema, ids) -> {
          int table = ids.from() + 1;
          awaitCreated(meta, table);
          var created =
              (DdlReply.Rejected) meta.setBackfillRateLimit(table, 0).get(5, TimeUnit.SECONDS);
          assertThat(created.reason()).isEqualTo(DdlReply.Rejected.Reason.WRONG_STATUS);
          assertThat(created.message())
              .isEqualTo(
                  "job "
                      + table
                      + " (table 't') is created: only a creating job has a backfill to throttle");
          var unknown =
              (DdlReply.Rejected) meta.setBackfillRateLimit(9999, 0).get(5, TimeUnit.SECONDS);
          assertThat(unknown.reason()).isEqualTo(DdlReply.Rejected.Reason.NOT_FOUND);
          assertThat(unknown.message()).contains("job 9999 does not exist");
        });
  }
}
