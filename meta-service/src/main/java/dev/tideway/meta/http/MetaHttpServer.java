package dev.tideway.meta.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import dev.tideway.barrier.epoch.Epoch;
import dev.tideway.barrier.progress.JobProgress;
import dev.tideway.common.exec.Threads;
import dev.tideway.meta.barrier.BarrierLog;
import dev.tideway.meta.barrier.SinkDeliveries;
import dev.tideway.protocol.catalog.CatalogObject;
import dev.tideway.protocol.catalog.CatalogState;
import dev.tideway.protocol.catalog.FragmentGraph;
import dev.tideway.protocol.catalog.JobRecord;
import dev.tideway.protocol.catalog.NodeInfo;
import dev.tideway.protocol.catalog.ObjectKind;
import dev.tideway.protocol.meta.DdlReply;
import io.prometheus.metrics.exporter.httpserver.MetricsHandler;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The HTTP endpoints of a meta process (issue: default 127.0.0.1:5691):
 *
 * <ul>
 *   <li>{@code /}: the dashboard, one self-contained page that polls the JSON endpoints below every
 *       second (jobs being created with their progress, streaming jobs, nodes, recent barriers)
 *   <li>{@code /health/live}: 200 while the process runs (no ZooKeeper dependency)
 *   <li>{@code /health/ready}: 200 if leader with metadata loaded or a connected standby, else 503
 *   <li>{@code /api/cluster}: cluster id, leader, this process's role, registered nodes
 *   <li>{@code /api/jobs}: streaming jobs with status and create type
 *   <li>{@code /api/ddl-progress}: the structured {@code JobProgress} of creating jobs (leader)
 *   <li>{@code /api/barriers}: the leader's recent barriers with inject, collect and commit times
 *       (ms since the epoch; -1 = not yet), newest first
 *   <li>{@code /metrics}: Prometheus text via the exporter's {@code MetricsHandler}
 *   <li>{@code /jobs/{id}} (a job's page), {@code /cluster} (nodes, storage, meta processes), and
 *       the API behind them and the dashboard's charts and history ({@link DashboardApi}); uPlot
 *       from its WebJar at {@code /webjars/uplot/VERSION/dist/}
 * </ul>
 *
 * <p>Every endpoint answers GET only, except the job page's two actions ({@code POST
 * /api/jobs/{id}/rate-limit} and {@code /cancel}), which answer only clients whose address the
 * server's {@code controlAllowed} accepts (loopback by default) and that carry the {@code
 * X-Tideway-Action} header (so no other web site open in the user's browser can post them), and 403
 * to others.
 *
 * <p>Handlers run on a two-thread pool ({@code meta-http-N}) and read only {@link MetaView}
 * snapshots.
 */
public final class MetaHttpServer implements AutoCloseable {
  public static final String DEFAULT_HOST = "127.0.0.1";
  public static final int DEFAULT_PORT = 5691;

  /**
   * The JDK server's switch for TCP_NODELAY. Without it each answer waits about 40 ms for the
   * client's delayed ACK (Nagle's algorithm holds the body behind the headers): 50 ms for every
   * poll of every page, whatever its size, against 4-15 ms with it (DashboardScaleTest). Read once,
   * when the JVM creates its first server of the JDK's kind: the launcher sets it first thing, and
   * this class sets it unless something did already.
   */
  public static final String NODELAY_PROPERTY = "sun.net.httpserver.nodelay";

  static {
    if (System.getProperty(NODELAY_PROPERTY) == null) {
      System.setProperty(NODELAY_PROPERTY, "true");
    }
  }

  private final HttpServer server;
  private final ExecutorService pool = Threads.fixedPool("meta-http", 2);

  /** Read-only: no job control. */
  public MetaHttpServer(String host, int port, MetaView view, MetaMetrics metrics)
      throws IOException {
    this(host, port, view, metrics, null, InetAddress::isLoopbackAddress);
  }

  /**
   * @param control the job page's buttons, or null for none
   * @param controlAllowed which client addresses may use them (by default only loopback)
   */
  public MetaHttpServer(
      String host,
      int port,
      MetaView view,
      MetaMetrics metrics,
      JobControl control,
      Predicate<InetAddress> controlAllowed)
      throws IOException {
    server = HttpServer.create(new InetSocketAddress(host, port), 16);
    server.setExecutor(pool);
    Map<String, String> pages = new LinkedHashMap<>();
    for (String name : PAGES) {
      pages.put(name, resource(name));
    }
    server.createContext("/", byPath(path -> page(view, pages, path)));
    server.createContext("/webjars/", byPath(MetaHttpServer::webjar));
    server.createContext(
        "/api/timeseries",
        request(r -> DashboardApi.ok(DashboardApi.timeseries(view, r.longParam("since", 0)))));
    server.createContext(
        "/api/history",
        request(
            r ->
                DashboardApi.ok(
                    DashboardApi.history(
                        view,
                        r.longParam("offset", 0),
                        (int)
                            Math.min(
                                DashboardApi.MAX_PAGE,
                                Math.max(1, r.longParam("limit", DashboardApi.DEFAULT_PAGE)))))));
    server.createContext(
        "/api/cluster/detail", request(r -> DashboardApi.ok(DashboardApi.clusterDetail(view))));
    server.createContext(
        "/api/jobs/",
        ex -> {
          DashboardApi.Request r = parse(ex);
          // a browser sends a custom header cross-origin only after a CORS preflight, which this
          // server never grants: another site open in the same browser cannot post here
          boolean allowed =
              control != null
                  && controlAllowed.test(ex.getRemoteAddress().getAddress())
                  && ex.getRequestHeaders().containsKey(ACTION_HEADER);
          send(
              ex,
              guarded(
                  () ->
                      DashboardApi.job(view, control == null ? NO_CONTROL : control, r, allowed)));
        });
    server.createContext("/health/live", get(() -> new Reply(200, "text/plain", "ok\n")));
    server.createContext(
        "/health/ready",
        get(
            () ->
                view.isReady()
                    ? new Reply(200, "text/plain", view.isLeader() ? "leader\n" : "standby\n")
                    : new Reply(503, "text/plain", "not ready\n")));
    server.createContext("/api/cluster", get(() -> json(cluster(view))));
    server.createContext("/api/jobs", get(() -> json(jobs(view))));
    server.createContext("/api/ddl-progress", get(() -> json(ddlProgress(view))));
    server.createContext("/api/barriers", get(() -> json(barriers(view))));
    HttpHandler metricsHandler = new MetricsHandler(metrics.registry());
    server.createContext(
        "/metrics",
        ex -> {
          if (!"GET".equals(ex.getRequestMethod())) {
            send(ex, new Reply(405, "text/plain", "GET only\n"));
          } else {
            metricsHandler.handle(ex);
          }
        });
    server.start();
  }

  /** The pages and their shared script and style, read once from this module's resources. */
  static final List<String> PAGES =
      List.of("dashboard.html", "job.html", "cluster.html", "dashboard.js", "dashboard.css");

  /** The uPlot build the pages load (a WebJar on the classpath: nothing is fetched at run time). */
  static final String WEBJARS = "/META-INF/resources/webjars/";

  /** The header a job action must carry (the job page's script sets it). */
  static final String ACTION_HEADER = "X-Tideway-Action";

  private static final Pattern JOB_PAGE = Pattern.compile("/jobs/([0-9]{1,9})/?");
  private static final Pattern WEBJAR_PATH =
      Pattern.compile("/webjars/(uplot/[0-9.]+/dist/uPlot\\.(iife\\.min\\.js|min\\.css))");

  private static final JobControl NO_CONTROL =
      new JobControl() {
        @Override
        public CompletableFuture<DdlReply> setBackfillRateLimit(int jobId, long rowsPerSecond) {
          return CompletableFuture.failedFuture(new IllegalStateException("no job control"));
        }

        @Override
        public CompletableFuture<DdlReply> cancel(int jobId) {
          return setBackfillRateLimit(jobId, 0);
        }
      };

  static String dashboardPage() throws IOException {
    return resource("dashboard.html");
  }

  /** A resource of this package, read once. */
  static String resource(String name) throws IOException {
    try (InputStream in = MetaHttpServer.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IOException(name + " is missing from the meta-service jar");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private static Reply page(MetaView view, Map<String, String> pages, String path) {
    if (path.equals("/") || path.equals("/index.html")) {
      return new Reply(200, "text/html", pages.get("dashboard.html"));
    } else if (path.equals("/cluster")) {
      return new Reply(200, "text/html", pages.get("cluster.html"));
    } else if (path.equals("/static/dashboard.js")) {
      return new Reply(200, "text/javascript", pages.get("dashboard.js"));
    } else if (path.equals("/static/dashboard.css")) {
      return new Reply(200, "text/css", pages.get("dashboard.css"));
    }
    Matcher m = JOB_PAGE.matcher(path);
    if (m.matches()) {
      int id = Integer.parseInt(m.group(1));
      boolean exists = view.catalog().map(s -> s.jobs().containsKey(id)).orElse(true);
      if (exists) {
        return new Reply(200, "text/html", pages.get("job.html"));
      }
      return new Reply(404, "text/plain", "job " + id + " does not exist\n");
    }
    return new Reply(404, "text/plain", "no such page: " + path + "\n");
  }

  /** The uPlot files, from its WebJar on the classpath. */
  private static Reply webjar(String path) {
    Matcher m = WEBJAR_PATH.matcher(path);
    if (!m.matches()) {
      return new Reply(404, "text/plain", "no such file: " + path + "\n");
    }
    try (InputStream in = MetaHttpServer.class.getResourceAsStream(WEBJARS + m.group(1))) {
      if (in == null) {
        return new Reply(404, "text/plain", "not in this build: " + path + "\n");
      }
      String type = path.endsWith(".css") ? "text/css" : "text/javascript";
      return new Reply(200, type, new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The bound address (the port is real even when 0 was asked). */
  public InetSocketAddress address() {
    return server.getAddress();
  }

  record Reply(int status, String contentType, String body) {}

  private static Reply json(Object doc) {
    return new Reply(200, "application/json", Json.write(doc));
  }

  /** A GET-only handler of the dashboard API (query parameters; a bad one answers 400). */
  private static HttpHandler request(Function<DashboardApi.Request, Reply> reply) {
    return ex -> {
      DashboardApi.Request r = parse(ex);
      send(
          ex,
          "GET".equals(r.method())
              ? guarded(() -> reply.apply(r))
              : DashboardApi.methodNotAllowed("GET"));
    };
  }

  private static Reply guarded(Supplier<Reply> reply) {
    try {
      return reply.get();
    } catch (DashboardApi.BadRequest e) {
      return new Reply(400, "application/json", Json.write(Map.of("error", e.getMessage())));
    } catch (RuntimeException e) {
      return new Reply(
          503, "application/json", Json.write(Map.of("error", "unavailable: " + e.getMessage())));
    }
  }

  /** The request's method, path, query and (for POST, at most 4 KiB) body. */
  private static DashboardApi.Request parse(HttpExchange ex) throws IOException {
    Map<String, String> query = new LinkedHashMap<>();
    String raw = ex.getRequestURI().getRawQuery();
    if (raw != null) {
      for (String kv : raw.split("&")) {
        int eq = kv.indexOf('=');
        if (eq > 0) {
          query.put(
              URLDecoder.decode(kv.substring(0, eq), StandardCharsets.UTF_8),
              URLDecoder.decode(kv.substring(eq + 1), StandardCharsets.UTF_8));
        }
      }
    }
    String body = "";
    if ("POST".equals(ex.getRequestMethod())) {
      try (InputStream in = ex.getRequestBody()) {
        body = new String(in.readNBytes(4096), StandardCharsets.UTF_8);
      }
    }
    return new DashboardApi.Request(
        ex.getRequestMethod(), ex.getRequestURI().getPath(), query, body);
  }

  private static HttpHandler get(Supplier<Reply> reply) {
    return byPath(path -> reply.get());
  }

  /** A GET-only handler whose reply depends on the request path. */
  private static HttpHandler byPath(Function<String, Reply> reply) {
    return ex -> {
      Reply r;
      if (!"GET".equals(ex.getRequestMethod())) {
        r = new Reply(405, "text/plain", "GET only\n");
      } else {
        try {
          r = reply.apply(ex.getRequestURI().getPath());
        } catch (RuntimeException e) {
          r = new Reply(503, "text/plain", "unavailable: " + e.getMessage() + "\n");
        }
      }
      send(ex, r);
    };
  }

  private static void send(HttpExchange ex, Reply r) throws IOException {
    byte[] body = r.body().getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().set("Content-Type", r.contentType() + "; charset=utf-8");
    ex.getResponseHeaders().set("Cache-Control", "no-store");
    ex.sendResponseHeaders(r.status(), body.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(body);
    }
  }

  static Map<String, Object> cluster(MetaView view) {
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("clusterId", view.clusterId());
    doc.put(
        "self",
        Map.of(
            "participant", view.participantId(), "role", view.isLeader() ? "leader" : "standby"));
    doc.put(
        "leader",
        view.leader()
            .map(
                l ->
                    (Object)
                        Map.of("address", l.address(), "http", l.httpAddress(), "epoch", l.epoch()))
            .orElse(null));
    List<Object> nodes = new ArrayList<>();
    for (NodeInfo n : view.nodes()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("role", n.role());
      m.put("address", n.address());
      m.put("cores", n.cores());
      m.put("startedAtMs", n.startedAtMs());
      nodes.add(m);
    }
    doc.put("nodes", nodes);
    return doc;
  }

  static List<Object> jobs(MetaView view) {
    List<Object> out = new ArrayList<>();
    CatalogState s =
        view.catalog().orElseThrow(() -> new IllegalStateException("catalog not loaded"));
    Map<Integer, SinkDeliveries.Delivered> deliveries = view.sinkDeliveries();
    for (JobRecord j : s.jobs().values()) {
      CatalogObject o = s.objects().get(j.jobId());
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("id", j.jobId());
      m.put("name", o == null ? "" : o.name());
      m.put("kind", o == null ? "" : o.kind().name());
      m.put("status", j.status().name());
      m.put("createType", j.createType().name());
      m.put("createdAtMs", j.createdAtMs());
      m.put("definition", j.definition());
      m.put("error", j.error());
      if (o != null && o.kind() == ObjectKind.SINK) {
        putDelivery(m, s.fragments().get(j.jobId()), deliveries);
      }
      out.add(m);
    }
    return out;
  }

  /**
   * A sink's delivery from its actors' reports: the epoch every actor's target holds (the least),
   * its time, and the records delivered since the actors started; null when meta has no report (a
   * standby, or before the sink's first checkpoint).
   */
  private static void putDelivery(
      Map<String, Object> m, FragmentGraph g, Map<Integer, SinkDeliveries.Delivered> deliveries) {
    long epoch = Long.MAX_VALUE;
    long records = 0;
    boolean any = false;
    for (FragmentGraph.Actor a : g == null ? List.<FragmentGraph.Actor>of() : g.actors()) {
      SinkDeliveries.Delivered d = deliveries.get(a.actorId());
      if (d != null) {
        any = true;
        epoch = Math.min(epoch, d.epoch());
        records += d.records();
      }
    }
    boolean delivered = any && epoch > 0;
    m.put("deliveredEpoch", delivered ? epoch : null);
    m.put("deliveredAtMs", delivered ? Epoch.unixMillis(epoch) : null);
    m.put("deliveredRecords", any ? records : null);
  }

  static Map<String, Object> barriers(MetaView view) {
    List<Object> out = new ArrayList<>();
    List<BarrierLog.Entry> recent = view.recentBarriers();
    for (int i = recent.size() - 1; i >= 0; i--) {
      BarrierLog.Entry e = recent.get(i);
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("epoch", e.curr());
      m.put("prevEpoch", e.prev());
      m.put("kind", e.kind());
      m.put("mutation", e.mutation().isEmpty() ? null : e.mutation());
      m.put("injectedAtMs", e.injectedMs());
      m.put("collectedAtMs", e.collectedMs());
      m.put("committedAtMs", e.committedMs());
      m.put("collectMs", e.collectedMs() < 0 ? null : e.collectedMs() - e.injectedMs());
      out.add(m);
    }
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("leader", view.isLeader());
    doc.put("inflight", view.inflightBarriers());
    doc.put("barriers", out);
    return doc;
  }

  static List<Object> ddlProgress(MetaView view) {
    List<Object> out = new ArrayList<>();
    view.progress().values().stream()
        .sorted(java.util.Comparator.comparingLong(JobProgress::jobId))
        .forEach(
            p -> {
              Map<String, Object> m = new LinkedHashMap<>();
              m.put("jobId", p.jobId());
              m.put("epoch", p.epoch());
              m.put("phase", p.phase().name());
              m.put("consumedRows", p.totalConsumed());
              m.put("totalRows", p.totalDenominator());
              m.put("totalIsExact", p.denominatorExact());
              m.put("fraction", p.displayRatio());
              m.put("rowsPerSecond", p.rowsPerSecond());
              m.put("etaSeconds", p.etaSeconds().isPresent() ? p.etaSeconds().getAsLong() : null);
              m.put("logStoreLagMs", p.logStoreLagMs());
              m.put("stalledReason", p.stalledReason().orElse(null));
              m.put("progress", p.render());
              out.add(m);
            });
    return out;
  }

  @Override
  public void close() {
    server.stop(0);
    pool.shutdown();
  }
}
