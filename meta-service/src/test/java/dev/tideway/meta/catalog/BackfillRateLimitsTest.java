package dev.tideway.meta.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tideway.common.plan.StreamNode;
import dev.tideway.common.plan.StreamPlanNode;
import dev.tideway.meta.fragment.Plans;
import dev.tideway.protocol.catalog.CatalogState;
import dev.tideway.protocol.catalog.CreateType;
import dev.tideway.protocol.catalog.FragmentGraph;
import dev.tideway.protocol.catalog.JobStatus;
import dev.tideway.protocol.catalog.KryoPlanCodec;
import dev.tideway.protocol.catalog.ObjectKind;
import dev.tideway.protocol.meta.DdlCommand;
import dev.tideway.protocol.meta.DdlCommand.CreateStreamingJob;
import dev.tideway.protocol.meta.DdlCommand.SetBackfillRateLimit;
import dev.tideway.protocol.meta.DdlReply;
import dev.tideway.protocol.meta.DdlReply.Rejected.Reason;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code ALTER MATERIALIZED VIEW ... SET BACKFILL_RATE_LIMIT} decided purely: the rate lands in
 * every scan of the job's persisted fragment bodies (what a recovery rebuilds from), the reply
 * names the backfill actors, and only a creating job with a backfill is accepted.
 */
class BackfillRateLimitsTest {
  final KryoPlanCodec codec = KryoPlanCodec.create();
  final CatalogCore core = new CatalogCore(codec);
  CatalogState state;
  int schema;

  @BeforeEach
  void bootstrap() {
    state = CatalogState.empty();
    core.bootstrap(state).forEach(c -> state = state.apply(c));
    schema = state.find(1, CatalogCore.DEFAULT_SCHEMA, ObjectKind.SCHEMA).orElseThrow().id();
  }

  DdlReply run(DdlCommand cmd) {
    DdlDecision d = core.decide(cmd, state, CatalogCoreTest.TWO_NODES);
    if (d.reply() instanceof DdlReply.Rejected) {
      assertThat(d.changes()).as("a rejection changes nothing").isEmpty();
    }
    d.changes().forEach(c -> state = state.apply(c));
    return d.reply();
  }

  int[] reserve(int n) {
    var r = (DdlReply.IdsReserved) run(new DdlCommand.ReserveIds(n));
    int[] ids = new int[n];
    for (int i = 0; i < n; i++) {
      ids[i] = r.from() + i;
    }
    return ids;
  }

  DdlReply.JobAccepted create(ObjectKind kind, String name, StreamPlanNode plan) {
    return (DdlReply.JobAccepted)
        run(
            new CreateStreamingJob(
                kind, schema, name, "CREATE " + name, plan, CreateType.BACKGROUND));
  }

  /** A created count MV {@code mv1} and a creating MV {@code mv2} that backfills from it. */
  int[] mvOnCreatedMv() {
    int[] up = reserve(3);
    int upstream =
        create(ObjectKind.MATERIALIZED_VIEW, "mv1", Plans.countByK(up[0], up[1], up[2]))
            .job()
            .jobId();
    run(new DdlCommand.FinishJob(upstream, new byte[0]));
    int[] ids = reserve(2);
    int down =
        create(ObjectKind.MATERIALIZED_VIEW, "mv2", Plans.mvOnMv(upstream, ids[0], ids[1]))
            .job()
            .jobId();
    return new int[] {upstream, down};
  }

  List<Long> scanRates(FragmentGraph g) {
    List<Long> out = new ArrayList<>();
    g.fragments().forEach(f -> collect(codec.decode(f.body()), out));
    return out;
  }

  static void collect(StreamPlanNode n, List<Long> out) {
    if (n.node() instanceof StreamNode.StreamScan s) {
      out.add(s.rateLimit());
    }
    n.inputs().forEach(i -> collect(i, out));
  }

  @Test
  void theRateIsPersistedInEveryScanAndSentToEveryBackfillActor() {
    int down = mvOnCreatedMv()[1];
    FragmentGraph before = state.fragments().get(down);
    assertThat(scanRates(before)).containsOnly(StreamNode.StreamScan.UNLIMITED);

    var set = (DdlReply.BackfillRateLimitSet) run(new SetBackfillRateLimit(down, 0));

    FragmentGraph after = state.fragments().get(down);
    assertThat(scanRates(after)).isNotEmpty().containsOnly(0L);
    assertThat(after.actors()).as("placement unchanged").isEqualTo(before.actors());
    Map<Integer, Long> expected =
        before.fragments().stream()
            .filter(f -> BackfillRateLimits.hasScan(codec.decode(f.body())))
            .flatMap(f -> before.actorsOf(f.fragmentId()).stream())
            .collect(Collectors.toMap(FragmentGraph.Actor::actorId, a -> 0L));
    assertThat(set.rateByActor()).isNotEmpty().isEqualTo(expected);
    assertThat(set.jobId()).isEqualTo(down);
    assertThat(state.jobs().get(down).status()).isEqualTo(JobStatus.CREATING);

    run(new SetBackfillRateLimit(down, SetBackfillRateLimit.UNLIMITED));
    assertThat(scanRates(state.fragments().get(down))).containsOnly(-1L);
  }

  @Test
  void aCreatedJobAnUnknownJobAndAJobWithoutBackfillAreRefused() {
    int[] jobs = mvOnCreatedMv();
    assertThat(run(new SetBackfillRateLimit(jobs[0], 10)))
        .isEqualTo(
            new DdlReply.Rejected(
                Reason.WRONG_STATUS,
                "job "
                    + jobs[0]
                    + " (materialized view 'mv1') is created: only a creating job has a backfill"
                    + " to throttle"));
    assertThat(run(new SetBackfillRateLimit(4242, 10)))
        .isEqualTo(
            new DdlReply.Rejected(
                Reason.NOT_FOUND, "job 4242 does not exist: no backfill to throttle"));
    int[] ids = reserve(3);
    int noScan =
        create(ObjectKind.MATERIALIZED_VIEW, "mv3", Plans.countByK(ids[0], ids[1], ids[2]))
            .job()
            .jobId();
    assertThat(run(new SetBackfillRateLimit(noScan, 10)))
        .isEqualTo(
            new DdlReply.Rejected(
                Reason.INVALID,
                "job "
                    + noScan
                    + " (materialized view 'mv3') reads no table or materialized view: no backfill"
                    + " to throttle"));
    assertThatThrownBy(() -> new SetBackfillRateLimit(jobs[1], -2))
        .hasMessageContaining("must be >= 0 or UNLIMITED (-1), got -2");
  }
}
