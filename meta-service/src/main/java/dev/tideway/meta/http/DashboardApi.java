package dev.tideway.meta.http;

import dev.tideway.meta.barrier.NodeStatuses;
import dev.tideway.meta.dashboard.DashboardRecorder;
import dev.tideway.meta.dashboard.SeriesRing;
import dev.tideway.meta.http.MetaHttpServer.Reply;
import dev.tideway.protocol.catalog.BackfillHistory;
import dev.tideway.protocol.catalog.CatalogState;
import dev.tideway.protocol.catalog.FragmentGraph;
import dev.tideway.protocol.catalog.JobRecord;
import dev.tideway.protocol.catalog.NodeInfo;
import dev.tideway.protocol.meta.DdlReply;
import dev.tideway.storage.api.TableStats;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The dashboard's JSON beyond the current moment's tables (pure functions of a {@link MetaView};
 * {@link MetaHttpServer} routes to them):
 *
 * <ul>
 *   <li>{@code GET /api/timeseries?since=MS}: the barrier loop's per-second series (latency p50/p99
 *       of inject→collect and inject→commit, checkpoint commit duration, epochs committed) and the
 *       recoveries as events
 *   <li>{@code GET /api/jobs/{id}}: one job: definition, status, progress, throttle, errors, the
 *       fragment graph, the first page of its backfill actors
 *   <li>{@code GET /api/jobs/{id}/actors?offset=&limit=}: a page of its backfill actors
 *   <li>{@code GET /api/jobs/{id}/timeseries?since=MS}: its progress and rows in/out per second
 *   <li>{@code POST /api/jobs/{id}/rate-limit} ({@code rowsPerSecond=N}, -1 removes) and {@code
 *       POST /api/jobs/{id}/cancel}: only from an allowed address (see {@link MetaHttpServer})
 *   <li>{@code GET /api/history?offset=&limit=}: finished backfills, newest first
 *   <li>{@code GET /api/cluster/detail}: nodes with their actors, the meta processes (leader and
 *       standbys), this process's memory, the storage version and its tables
 * </ul>
 *
 * A series answers only rows newer than {@code since}, so a page polls for what is new instead of
 * reloading an hour each second.
 */
final class DashboardApi {
  static final int DEFAULT_PAGE = 100;
  static final int MAX_PAGE = 1000;
  private static final Pattern JOB_PATH = Pattern.compile("/api/jobs/([0-9]{1,9})(/[a-z-]+)?/?");
  private static final Pattern RATE = Pattern.compile("-?[0-9]{1,15}");

  private DashboardApi() {}

  /** A request as the routes see it. */
  record Request(String method, String path, Map<String, String> query, String body) {
    long longParam(String name, long dflt) {
      String v = query.get(name);
      try {
        return v == null ? dflt : Long.parseLong(v);
      } catch (NumberFormatException e) {
        throw new BadRequest(name + " must be a number, got '" + v + "'");
      }
    }
  }

  /** A request the client got wrong: 400 with the message. */
  static final class BadRequest extends RuntimeException {
    BadRequest(String message) {
      super(message);
    }
  }

  static Reply notFound(String what) {
    return new Reply(404, "application/json", Json.write(Map.of("error", what)));
  }

  static Reply methodNotAllowed(String allowed) {
    return new Reply(405, "application/json", Json.write(Map.of("error", allowed + " only")));
  }

  static Reply ok(Object doc) {
    return new Reply(200, "application/json", Json.write(doc));
  }

  /** Routes {@code /api/jobs/{id}[/part]}; {@code allowed} says whether control is permitted. */
  static Reply job(MetaView view, JobControl control, Request r, boolean allowed) {
    Matcher m = JOB_PATH.matcher(r.path());
    if (!m.matches()) {
      return notFound("no such job path: " + r.path());
    }
    int id = Integer.parseInt(m.group(1));
    String part = m.group(2) == null ? "" : m.group(2);
    boolean action = part.equals("/rate-limit") || part.equals("/cancel");
    if (!part.isEmpty() && !action && !part.equals("/actors") && !part.equals("/timeseries")) {
      return notFound("no such job path: " + r.path());
    }
    if (!r.method().equals(action ? "POST" : "GET")) {
      return methodNotAllowed(action ? "POST" : "GET");
    }
    CatalogState s = view.catalog().orElseThrow(() -> new IllegalStateException("no catalog"));
    JobRecord job = s.jobs().get(id);
    if (job == null) {
      return notFound("job " + id + " does not exist");
    }
    if (action) {
      if (!allowed) {
        return new Reply(
            403,
            "application/json",
            Json.write(
                Map.of(
                    "error",
                    "changing jobs is allowed only from the meta host's own pages (this address"
                        + " or request is not)")));
      }
      return part.equals("/cancel") ? answer(control.cancel(id)) : rateLimit(control, id, r);
    }
    return switch (part) {
      case "/actors" -> ok(JobDocs.actors(view, s, job, r.longParam("offset", 0), page(r)));
      case "/timeseries" -> ok(jobSeries(view, id, r.longParam("since", 0)));
      default -> ok(JobDocs.jobDetail(view, s, job));
    };
  }

  private static int page(Request r) {
    long limit = r.longParam("limit", DEFAULT_PAGE);
    if (limit <= 0 || limit > MAX_PAGE) {
      throw new BadRequest("limit must be in 1.." + MAX_PAGE + ", got " + limit);
    }
    return (int) limit;
  }

  private static Reply rateLimit(JobControl control, int id, Request r) {
    Matcher m = Pattern.compile("rowsPerSecond[\"']?\\s*[=:]\\s*(-?[0-9]+)").matcher(r.body());
    String v = m.find() ? m.group(1) : r.query().get("rowsPerSecond");
    if (v == null || !RATE.matcher(v).matches()) {
      throw new BadRequest("rowsPerSecond=N expected (N >= 0, or -1 to remove the limit)");
    }
    return answer(control.setBackfillRateLimit(id, Long.parseLong(v)));
  }

  private static Reply answer(java.util.concurrent.CompletableFuture<DdlReply> f) {
    DdlReply reply;
    try {
      reply = f.get(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Reply(503, "application/json", Json.write(Map.of("error", "interrupted")));
    } catch (Exception e) {
      Throwable c = e.getCause() == null ? e : e.getCause();
      return new Reply(
          503, "application/json", Json.write(Map.of("error", String.valueOf(c.getMessage()))));
    }
    if (reply instanceof DdlReply.Rejected rej) {
      return new Reply(
          409,
          "application/json",
          Json.write(Map.of("error", rej.message(), "reason", rej.reason().name())));
    }
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("ok", true);
    doc.put("reply", reply.getClass().getSimpleName());
    if (reply instanceof DdlReply.BackfillThrottled t) {
      doc.put("rowsPerSecond", t.rowsPerSecond());
      doc.put("applied", t.applied().name());
      doc.put("epoch", t.epoch());
    }
    return ok(doc);
  }

  static Map<String, Object> jobSeries(MetaView view, long jobId, long since) {
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("jobId", jobId);
    doc.put("leader", view.isLeader());
    doc.put("resolutionMs", 1000);
    Optional<DashboardRecorder> r = view.recorder();
    doc.put(
        "progress",
        series(
            r.flatMap(x -> x.progress(jobId, since)).orElse(null),
            DashboardRecorder.PROGRESS_COLUMNS));
    doc.put(
        "flow",
        series(r.flatMap(x -> x.flow(jobId, since)).orElse(null), DashboardRecorder.FLOW_COLUMNS));
    return doc;
  }

  static Map<String, Object> timeseries(MetaView view, long since) {
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("leader", view.isLeader());
    doc.put("resolutionMs", 1000);
    Optional<DashboardRecorder> r = view.recorder();
    doc.put(
        "barriers",
        series(r.map(x -> x.barriers(since)).orElse(null), DashboardRecorder.BARRIER_COLUMNS));
    doc.put(
        "recoveries",
        r.map(DashboardRecorder::recoveries).orElse(List.of()).stream()
            .filter(e -> e.atMs() > since)
            .map(e -> (Object) Map.of("atMs", e.atMs(), "cause", e.cause()))
            .toList());
    return doc;
  }

  /** Rows as columns: {@code {"t": [...], name: [...]}}; NaN and infinities become null. */
  private static Map<String, Object> series(SeriesRing.Rows rows, List<String> names) {
    Map<String, Object> m = new LinkedHashMap<>();
    List<Object> t = new ArrayList<>();
    if (rows != null) {
      for (long x : rows.times()) {
        t.add(x);
      }
    }
    m.put("t", t);
    for (int c = 0; c < names.size(); c++) {
      List<Object> col = new ArrayList<>();
      if (rows != null) {
        for (double v : rows.columns()[c]) {
          col.add(Double.isFinite(v) ? (Object) v : null);
        }
      }
      m.put(names.get(c), col);
    }
    return m;
  }

  static Map<String, Object> history(MetaView view, long offset, int limit) {
    CatalogState s = view.catalog().orElseThrow(() -> new IllegalStateException("no catalog"));
    List<BackfillHistory.Entry> all = s.backfills().entries();
    List<Object> out = new ArrayList<>();
    for (int i = all.size() - 1 - (int) Math.min(offset, all.size()); i >= 0; i--) {
      if (out.size() >= limit) {
        break;
      }
      BackfillHistory.Entry e = all.get(i);
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("jobId", e.jobId());
      m.put("name", e.name());
      m.put("definition", e.definition());
      m.put("startedAtMs", e.startedAtMs());
      m.put("finishedAtMs", e.finishedAtMs());
      m.put("durationMs", e.finishedAtMs() - e.startedAtMs());
      m.put("rows", e.rows());
      m.put("avgRowsPerSecond", finite(e.avgRowsPerSecond()));
      m.put("peakRowsPerSecond", finite(e.peakRowsPerSecond()));
      m.put("progressError", finite(e.progressError()));
      m.put("progressErrorAtMs", e.progressErrorAtMs());
      m.put("samples", e.samples());
      m.put("totalIsExact", e.totalIsExact());
      m.put("exists", s.jobs().containsKey(e.jobId()));
      out.add(m);
    }
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("total", all.size());
    doc.put("offset", offset);
    doc.put("entries", out);
    return doc;
  }

  private static Object finite(double v) {
    return Double.isFinite(v) ? (Object) v : null;
  }

  private static final Pattern SSTS = Pattern.compile("ssts=\\{([0-9=, ]*)\\}");

  /**
   * The SSTs per level, from a version's description ({@code "Version#7{committed=.., safe=..,
   * ssts={0=3, 1=0, 2=1, 3=0}}"}, the storage engine's {@code Version.toString}); empty if absent.
   */
  static List<Object> sstsPerLevel(String version) {
    Matcher m = SSTS.matcher(version);
    List<Object> out = new ArrayList<>();
    if (m.find()) {
      for (String kv : m.group(1).split(",")) {
        int eq = kv.indexOf('=');
        if (eq > 0) {
          out.add(Long.parseLong(kv.substring(eq + 1).trim()));
        }
      }
    }
    return out;
  }

  /**
   * A compute node's heap and compaction activity as its last committed checkpoint reported them;
   * null before its first (a standby, a node without actors).
   */
  private static Object nodeStatus(NodeStatuses.Status st) {
    if (st == null) {
      return null;
    }
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("heapUsedBytes", st.heapUsedBytes());
    m.put("heapMaxBytes", st.heapMaxBytes());
    Map<String, Object> c = new LinkedHashMap<>();
    c.put("running", st.compactionsRunning());
    c.put("finished", st.compactionsFinished());
    c.put("failed", st.compactionsFailed());
    c.put("readBytes", st.compactionReadBytes());
    c.put("writtenBytes", st.compactionWrittenBytes());
    c.put("lastAtMs", st.lastCompactionAtMs() == 0 ? null : st.lastCompactionAtMs());
    m.put("compaction", c);
    return m;
  }

  static Map<String, Object> clusterDetail(MetaView view) {
    Map<String, Object> doc = new LinkedHashMap<>(MetaHttpServer.cluster(view));
    Optional<CatalogState> s = view.catalog();
    Map<String, Integer> actorsByNode = new TreeMap<>();
    Map<String, Integer> jobsByNode = new TreeMap<>();
    s.ifPresent(
        st -> {
          for (FragmentGraph g : st.fragments().values()) {
            Map<String, Boolean> seen = new HashMap<>();
            for (FragmentGraph.Actor a : g.actors()) {
              actorsByNode.merge(a.node(), 1, Integer::sum);
              if (seen.put(a.node(), true) == null) {
                jobsByNode.merge(a.node(), 1, Integer::sum);
              }
            }
          }
        });
    List<Object> nodes = new ArrayList<>();
    Map<String, NodeStatuses.Status> statuses = view.nodeStatuses();
    for (NodeInfo n : view.nodes()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("role", n.role());
      m.put("address", n.address());
      m.put("cores", n.cores());
      m.put("startedAtMs", n.startedAtMs());
      m.put(
          "actors", "compute".equals(n.role()) ? actorsByNode.getOrDefault(n.address(), 0) : null);
      m.put("jobs", "compute".equals(n.role()) ? jobsByNode.getOrDefault(n.address(), 0) : null);
      m.put("status", "compute".equals(n.role()) ? nodeStatus(statuses.get(n.address())) : null);
      m.put(
          "metaRole",
          "meta".equals(n.role())
              ? (view.leader().map(l -> l.address().equals(n.address())).orElse(false)
                  ? "leader"
                  : "standby")
              : null);
      nodes.add(m);
    }
    doc.put("nodes", nodes);
    Runtime rt = Runtime.getRuntime();
    doc.put(
        "memory",
        Map.of(
            "process",
            "this meta process",
            "heapUsedBytes",
            rt.totalMemory() - rt.freeMemory(),
            "heapCommittedBytes",
            rt.totalMemory(),
            "heapMaxBytes",
            rt.maxMemory()));
    doc.put("storageVersion", view.storageVersion());
    doc.put("sstsPerLevel", sstsPerLevel(view.storageVersion()));
    Map<Integer, String> names = new HashMap<>();
    s.ifPresent(st -> st.objects().values().forEach(o -> names.put(o.id(), o.name())));
    List<Object> tables = new ArrayList<>();
    for (Map.Entry<Integer, TableStats> e : new TreeMap<>(view.tableStats()).entrySet()) {
      TableStats t = e.getValue();
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("tableId", e.getKey());
      m.put("name", names.getOrDefault(e.getKey(), ""));
      m.put("keyCount", t.totalKeyCount());
      m.put("liveRows", t.liveRowCount());
      m.put("bytes", t.totalKeyBytes() + t.totalValueBytes());
      tables.add(m);
    }
    doc.put("tables", tables);
    return doc;
  }
}
