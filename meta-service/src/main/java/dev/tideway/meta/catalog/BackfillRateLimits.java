package dev.tideway.meta.catalog;

import dev.tideway.common.plan.StreamNode;
import dev.tideway.common.plan.StreamPlanNode;
import dev.tideway.protocol.catalog.CatalogChange;
import dev.tideway.protocol.catalog.CatalogObject;
import dev.tideway.protocol.catalog.CatalogState;
import dev.tideway.protocol.catalog.FragmentGraph;
import dev.tideway.protocol.catalog.JobRecord;
import dev.tideway.protocol.catalog.JobStatus;
import dev.tideway.protocol.catalog.PlanCodec;
import dev.tideway.protocol.meta.DdlCommand.SetBackfillRateLimit;
import dev.tideway.protocol.meta.DdlReply;
import dev.tideway.protocol.meta.DdlReply.Rejected.Reason;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Decides {@code ALTER MATERIALIZED VIEW ... SET BACKFILL_RATE_LIMIT}, purely: the job must exist
 * and be CREATING and have a backfill; every {@code StreamScan} in its fragment bodies gets the new
 * rate, and the rewritten fragment graph is the one change to persist. A recovery or a new leader
 * rebuilds the backfill actors from that graph, so they start with the new rate; the running actors
 * learn it from the {@code Throttle} mutation the barrier loop sends once this is persisted.
 *
 * <p>Backfill actors are the actors of fragments whose body holds a {@code StreamScan} (as {@link
 * dev.tideway.meta.progress.JobSpecs} counts them); the rate applies to each of them.
 */
final class BackfillRateLimits {
  private BackfillRateLimits() {}

  static DdlDecision decide(SetBackfillRateLimit c, CatalogState state, PlanCodec codec) {
    JobRecord job = state.jobs().get(c.jobId());
    if (job == null) {
      return DdlDecision.reject(
          Reason.NOT_FOUND, "job %s does not exist: no backfill to throttle", c.jobId());
    }
    if (job.status() != JobStatus.CREATING) {
      return DdlDecision.reject(
          Reason.WRONG_STATUS,
          "%s is %s: only a creating job has a backfill to throttle",
          describe(state, c.jobId()),
          job.status().name().toLowerCase(Locale.ROOT));
    }
    FragmentGraph graph = state.fragments().get(c.jobId());
    if (graph == null) {
      return DdlDecision.reject(
          Reason.WRONG_STATUS, "%s has no fragments", describe(state, c.jobId()));
    }
    if (!graph.planCodec().equals(codec.name())) {
      return DdlDecision.reject(
          Reason.INVALID,
          "%s: fragments encoded by plan codec '%s', this meta process runs '%s'",
          describe(state, c.jobId()),
          graph.planCodec(),
          codec.name());
    }
    List<FragmentGraph.Fragment> fragments = new ArrayList<>();
    Map<Integer, Long> rateByActor = new TreeMap<>();
    for (FragmentGraph.Fragment f : graph.fragments()) {
      StreamPlanNode body = codec.decode(f.body());
      if (!hasScan(body)) {
        fragments.add(f);
        continue;
      }
      fragments.add(
          new FragmentGraph.Fragment(
              f.fragmentId(),
              f.distribution(),
              f.upstreams(),
              f.stateTableIds(),
              codec.encode(withRate(body, c.rowsPerSecond()))));
      graph.actorsOf(f.fragmentId()).forEach(a -> rateByActor.put(a.actorId(), c.rowsPerSecond()));
    }
    if (rateByActor.isEmpty()) {
      return DdlDecision.reject(
          Reason.INVALID,
          "%s reads no table or materialized view: no backfill to throttle",
          describe(state, c.jobId()));
    }
    FragmentGraph next =
        new FragmentGraph(graph.jobId(), graph.planCodec(), fragments, graph.actors());
    return new DdlDecision(
        List.of(new CatalogChange.PutFragments(next)),
        new DdlReply.BackfillRateLimitSet(c.jobId(), c.rowsPerSecond(), rateByActor));
  }

  /** "job 12 (materialized view 'mv')", for messages. */
  static String describe(CatalogState state, int jobId) {
    CatalogObject o = state.objects().get(jobId); // a job's id is its relation's id
    if (o == null) {
      return "job " + jobId;
    }
    String kind = o.kind().name().toLowerCase(Locale.ROOT).replace('_', ' ');
    return "job " + jobId + " (" + kind + " '" + o.name() + "')";
  }

  static boolean hasScan(StreamPlanNode n) {
    if (n.node() instanceof StreamNode.StreamScan
        || n.node() instanceof dev.tideway.common.plan.SourceBackfillNode) {
      return true;
    }
    return n.inputs().stream().anyMatch(BackfillRateLimits::hasScan);
  }

  /** {@code n} with every scan limited to {@code rowsPerSecond} per actor. */
  static StreamPlanNode withRate(StreamPlanNode n, long rowsPerSecond) {
    List<StreamPlanNode> inputs = new ArrayList<>();
    n.inputs().forEach(in -> inputs.add(withRate(in, rowsPerSecond)));
    StreamNode body = n.node();
    if (body instanceof StreamNode.StreamScan s) {
      body = s.withRateLimit(rowsPerSecond);
    } else if (body instanceof dev.tideway.common.plan.SourceBackfillNode s) {
      body = s.withRateLimit(rowsPerSecond);
    }
    return new StreamPlanNode(n.operatorId(), body, inputs, n.outputSchema());
  }
}
