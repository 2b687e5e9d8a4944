package dev.tideway.meta.http;

import dev.tideway.barrier.progress.BackfillState;
import dev.tideway.barrier.progress.JobProgress;
import dev.tideway.barrier.progress.TrackerSnapshot;
import dev.tideway.common.plan.SourceBackfillNode;
import dev.tideway.common.plan.StreamNode;
import dev.tideway.common.plan.StreamPlanNode;
import dev.tideway.meta.barrier.VnodesDone;
import dev.tideway.meta.dashboard.DashboardRecorder;
import dev.tideway.meta.progress.ProgressSnapshotCodec;
import dev.tideway.protocol.catalog.CatalogObject;
import dev.tideway.protocol.catalog.CatalogState;
import dev.tideway.protocol.catalog.FragmentGraph;
import dev.tideway.protocol.catalog.JobRecord;
import dev.tideway.protocol.catalog.JobStatus;
import dev.tideway.protocol.catalog.PlanCodec;
import dev.tideway.protocol.compute.ExpressionErrorCount;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The job page's documents (pure functions of a {@link MetaView}): the job with its progress,
 * throttle and errors, its fragment graph, and pages of its backfill actors as the last committed
 * progress snapshot has them.
 */
final class JobDocs {
  private JobDocs() {}

  static Map<String, Object> jobDetail(MetaView view, CatalogState s, JobRecord job) {
    CatalogObject o = s.objects().get(job.jobId());
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("id", job.jobId());
    doc.put("name", o == null ? "" : o.name());
    doc.put("kind", o == null ? "" : o.kind().name());
    doc.put("status", job.status().name());
    doc.put("createType", job.createType().name());
    doc.put("createdAtMs", job.createdAtMs());
    doc.put("definition", job.definition());
    doc.put("leader", view.isLeader());
    JobProgress p = view.progress().get((long) job.jobId());
    doc.put("progress", p == null ? null : progress(p));
    List<String> errors = new ArrayList<>();
    if (!job.error().isEmpty()) {
      errors.add("paused: " + job.error());
    }
    if (p != null && p.stalledReason().isPresent()) {
      errors.add("stalled: " + p.stalledReason().get());
    }
    List<Object> exprErrors = new ArrayList<>();
    for (ExpressionErrorCount c : view.expressionErrors()) {
      if (c.jobId() != job.jobId()) {
        continue;
      }
      errors.add(
          "expression: "
              + c.count()
              + " value(s) set to NULL in fragment "
              + c.fragmentId()
              + " ("
              + c.kind()
              + "); last: "
              + c.lastMessage());
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("fragmentId", c.fragmentId());
      m.put("kind", c.kind());
      m.put("count", c.count());
      m.put("lastError", c.lastMessage());
      m.put("lastAtMs", c.lastAtMillis());
      exprErrors.add(m);
    }
    doc.put("errors", errors);
    doc.put("expressionErrors", exprErrors);
    doc.put(
        "history",
        s.backfills().entries().stream()
            .filter(e -> e.jobId() == job.jobId())
            .findFirst()
            .map(
                e ->
                    (Object)
                        Map.of(
                            "finishedAtMs", e.finishedAtMs(),
                            "durationMs", e.finishedAtMs() - e.startedAtMs(),
                            "rows", e.rows(),
                            "avgRowsPerSecond", e.avgRowsPerSecond(),
                            "progressError",
                                Double.isFinite(e.progressError()) ? e.progressError() : -1.0))
            .orElse(null));
    doc.put(
        "recoveries",
        view.recorder().map(DashboardRecorder::recoveries).orElse(List.of()).stream()
            .map(e -> (Object) Map.of("atMs", e.atMs(), "cause", e.cause()))
            .toList());
    FragmentGraph g = s.fragments().get(job.jobId());
    doc.put("graph", g == null ? null : graph(view, g));
    doc.put("rateLimit", rateLimit(planRates(view, g).values()));
    doc.put("actors", actors(view, s, job, 0, DashboardApi.DEFAULT_PAGE));
    return doc;
  }

  private static Map<String, Object> progress(JobProgress p) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("epoch", p.epoch());
    m.put("phase", p.phase().name());
    m.put("mode", p.mode().name());
    m.put("consumedRows", p.totalConsumed());
    m.put("totalRows", p.totalDenominator());
    m.put("totalIsExact", p.denominatorExact());
    m.put("upstreamKeyCount", p.upstreamKeyCount());
    m.put(
        "upstreamLiveRows",
        p.upstreamLiveRows().isPresent() ? p.upstreamLiveRows().getAsLong() : null);
    m.put("fraction", p.displayRatio());
    m.put("rowsPerSecond", Double.isNaN(p.rowsPerSecond()) ? null : p.rowsPerSecond());
    m.put("etaSeconds", p.etaSeconds().isPresent() ? p.etaSeconds().getAsLong() : null);
    m.put("actorsDone", p.actorsDone());
    m.put("actorsTotal", p.actorsTotal());
    m.put("logStoreLagMs", p.logStoreLagMs());
    m.put("progress", p.render());
    return m;
  }

  /**
   * The backfill rate limit per actor when all limited fragments share one (the usual case), else
   * the largest; null when no backfill is limited.
   */
  private static Object rateLimit(java.util.Collection<Long> rates) {
    if (rates.isEmpty()) {
      return null;
    }
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("rowsPerSecondPerActor", rates.stream().mapToLong(Long::longValue).max().orElse(-1));
    m.put("uniform", rates.stream().distinct().count() == 1);
    return m;
  }

  /**
   * Each limited backfill fragment's rate as its persisted plan holds it (what a recovery rebuilds
   * the actors with, and what {@code ALTER … SET BACKFILL_RATE_LIMIT} writes), by fragment.
   */
  static Map<Integer, Long> planRates(MetaView view, FragmentGraph g) {
    Map<Integer, Long> out = new HashMap<>();
    Optional<PlanCodec> codec = view.planCodec();
    if (g == null || codec.isEmpty()) {
      return out;
    }
    for (FragmentGraph.Fragment f : g.fragments()) {
      List<Long> rates = new ArrayList<>();
      try {
        scanRates(codec.get().decode(f.body()), rates);
      } catch (RuntimeException e) {
        continue; // a codec that cannot decode (tests): no rates
      }
      rates.stream()
          .filter(r -> r != StreamNode.StreamScan.UNLIMITED)
          .mapToLong(Long::longValue)
          .min()
          .ifPresent(r -> out.put(f.fragmentId(), r));
    }
    return out;
  }

  private static void scanRates(StreamPlanNode n, List<Long> out) {
    if (n.node() instanceof StreamNode.StreamScan s) {
      out.add(s.rateLimit());
    } else if (n.node() instanceof SourceBackfillNode s) {
      out.add(s.rateLimit());
    }
    n.inputs().forEach(i -> scanRates(i, out));
  }

  /**
   * A page of the job's backfill actors as the last committed progress snapshot has them, with the
   * sum over all of them (not just the page) and that snapshot's epoch.
   */
  static Map<String, Object> actors(
      MetaView view, CatalogState s, JobRecord job, long offset, int limit) {
    Map<String, Object> doc = new LinkedHashMap<>();
    byte[] bytes = job.progressSnapshot();
    ProgressSnapshotCodec.Saved saved =
        bytes.length == 0 ? null : ProgressSnapshotCodec.decode(bytes);
    FragmentGraph g = s.fragments().get(job.jobId());
    Map<Integer, Long> rates = planRates(view, g);
    Map<Integer, FragmentGraph.Actor> placed = new HashMap<>();
    if (g != null) {
      g.actors().forEach(a -> placed.put(a.actorId(), a));
    }
    List<Object> rows = new ArrayList<>();
    long sum = 0;
    int total = 0;
    Map<Integer, VnodesDone.Count> reported = view.vnodesDone();
    if (saved != null) {
      TrackerSnapshot.JobSnapshot j = saved.job();
      total = j.spec().actors().size();
      for (int i = 0; i < total; i++) {
        BackfillState st = j.states().get(i);
        sum += st.consumedRows();
        if (i < offset || rows.size() >= limit) {
          continue;
        }
        int actorId = j.spec().actors().get(i).actorId();
        FragmentGraph.Actor a = placed.get(actorId);
        int vnodes = a == null ? 0 : a.vnodes().count();
        // a created job's snapshot is its last before the finish: every actor was done then
        boolean done = st.code() >= BackfillState.DONE || job.status() == JobStatus.CREATED;
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("actorId", actorId);
        m.put("fragmentId", a == null ? null : a.fragmentId());
        m.put("node", a == null ? null : a.node());
        m.put("upstream", j.spec().actors().get(i).upstream().name());
        m.put("phase", done && st.code() < BackfillState.DONE ? "DONE" : phase(st));
        m.put("consumedRows", st.consumedRows());
        VnodesDone.Count c = reported.get(actorId);
        m.put("vnodes", vnodes);
        m.put("vnodesDone", done ? vnodes : c == null ? 0 : Math.min(c.done(), vnodes));
        m.put("rateLimit", a == null ? null : rates.get(a.fragmentId()));
        rows.add(m);
      }
    }
    doc.put("epoch", saved == null ? null : saved.epoch());
    doc.put("final", job.status() == JobStatus.CREATED);
    doc.put("offset", offset);
    doc.put("limit", limit);
    doc.put("total", total);
    doc.put("consumedRows", sum);
    doc.put("rows", rows);
    return doc;
  }

  private static String phase(BackfillState st) {
    return switch (st.code()) {
      case BackfillState.INIT -> "NOT_REPORTED";
      case BackfillState.CONSUMING_UPSTREAM -> "CONSUMING_UPSTREAM";
      case BackfillState.DONE -> "DONE";
      case BackfillState.CONSUMING_LOG_STORE -> "CONSUMING_LOG_STORE";
      default -> "DONE_CONSUMING_LOG_STORE";
    };
  }

  /** Fragments (with their operators and actors per node) and the exchanges between them. */
  static Map<String, Object> graph(MetaView view, FragmentGraph g) {
    Optional<PlanCodec> codec = view.planCodec();
    List<Object> fragments = new ArrayList<>();
    for (FragmentGraph.Fragment f : g.fragments()) {
      Map<String, Integer> perNode = new TreeMap<>();
      int actors = 0;
      for (FragmentGraph.Actor a : g.actors()) {
        if (a.fragmentId() == f.fragmentId()) {
          perNode.merge(a.node(), 1, Integer::sum);
          actors++;
        }
      }
      List<Object> edges = new ArrayList<>();
      for (FragmentGraph.Edge e : f.upstreams()) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("from", e.upstreamFragmentId());
        m.put("kind", e.kind().name());
        m.put("crossJob", e.crossJob());
        edges.add(m);
      }
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("id", f.fragmentId());
      m.put("distribution", f.distribution().name());
      m.put("operators", codec.map(c -> operators(c, f)).orElse(List.of()));
      m.put("actors", actors);
      m.put("actorsPerNode", new LinkedHashMap<String, Object>(perNode));
      m.put("stateTables", f.stateTableIds());
      m.put("upstreams", edges);
      fragments.add(m);
    }
    return Map.of("fragments", fragments);
  }

  /** The operator names of a fragment, root first, depth first. */
  private static List<Object> operators(PlanCodec codec, FragmentGraph.Fragment f) {
    List<Object> out = new ArrayList<>();
    try {
      collect(codec.decode(f.body()), out);
    } catch (RuntimeException e) {
      out.add("(undecodable)");
    }
    return out;
  }

  private static void collect(StreamPlanNode n, List<Object> out) {
    out.add(n.node().getClass().getSimpleName());
    n.inputs().forEach(i -> collect(i, out));
  }
}
