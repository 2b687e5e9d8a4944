package dev.tideway.meta.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.barrier.progress.BackfillActor;
import dev.tideway.barrier.progress.BackfillMode;
import dev.tideway.barrier.progress.BackfillState;
import dev.tideway.barrier.progress.JobSpec;
import dev.tideway.barrier.progress.TrackerSnapshot;
import dev.tideway.common.plan.DispatcherKind;
import dev.tideway.common.vnode.VnodeBitmap;
import dev.tideway.meta.barrier.NodeStatuses;
import dev.tideway.meta.progress.ProgressSnapshotCodec;
import dev.tideway.protocol.catalog.BackfillHistory;
import dev.tideway.protocol.catalog.CatalogObject;
import dev.tideway.protocol.catalog.CatalogState;
import dev.tideway.protocol.catalog.CreateType;
import dev.tideway.protocol.catalog.FragmentDistribution;
import dev.tideway.protocol.catalog.FragmentGraph;
import dev.tideway.protocol.catalog.JobRecord;
import dev.tideway.protocol.catalog.JobStatus;
import dev.tideway.protocol.catalog.LeaderInfo;
import dev.tideway.protocol.catalog.NextId;
import dev.tideway.protocol.catalog.NodeInfo;
import dev.tideway.protocol.catalog.ObjectKind;
import dev.tideway.protocol.catalog.RecoveryLog;
import dev.tideway.protocol.catalog.SystemParams;
import dev.tideway.protocol.compute.ExpressionErrorCount;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The dashboard's API at the scale, 200 creating jobs of 50 actors each (10,000 actors) on
 * 4 compute nodes: every document a page polls stays bounded (a job's page and its actor pages do
 * not grow with the cluster, the job list grows by a small constant per job, history and actors
 * come in pages). It also prints each endpoint's median response time and size over the loopback
 * HTTP server, for the record; times are not asserted (a shared machine would make them flaky).
 */
class DashboardScaleTest {
  static final int JOBS = 200;
  static final int ACTORS_PER_JOB = 50;
  static final List<String> NODES =
      List.of("compute-1:5688", "compute-2:5688", "compute-3:5688", "compute-4:5688");

  /** A leader's view of a synthetic catalog. */
  static final class Synthetic implements MetaView {
    final CatalogState state;

    Synthetic(CatalogState state) {
      this.state = state;
    }

    @Override
    public String clusterId() {
      return "scale";
    }

    @Override
    public String participantId() {
      return "meta-1";
    }

    @Override
    public boolean isLeader() {
      return true;
    }

    @Override
    public boolean isReady() {
      return true;
    }

    @Override
    public Optional<LeaderInfo> leader() {
      return Optional.of(new LeaderInfo("meta-1:5690", "127.0.0.1:5691", 1));
    }

    @Override
    public List<NodeInfo> nodes() {
      List<NodeInfo> out = new ArrayList<>();
      out.add(new NodeInfo("meta", "meta-1:5690", 1, 4, 1));
      for (String n : NODES) {
        out.add(new NodeInfo("compute", n, 2, 8, 1));
      }
      return out;
    }

    @Override
    public Map<String, NodeStatuses.Status> nodeStatuses() {
      Map<String, NodeStatuses.Status> out = new TreeMap<>();
      NODES.forEach(
          n ->
              out.put(
                  n, new NodeStatuses.Status(1L << 30, 4L << 30, 9, 1, 0, 1 << 20, 1 << 19, 5)));
      return out;
    }

    @Override
    public List<ExpressionErrorCount> expressionErrors() {
      List<ExpressionErrorCount> out = new ArrayList<>();
      for (int j = 1; j <= JOBS; j++) {
        out.add(new ExpressionErrorCount(j, j * 10 + 2, "DIVISION_BY_ZERO", 3, "x / 0", 5));
      }
      return out;
    }

    @Override
    public Optional<CatalogState> catalog() {
      return Optional.of(state);
    }
  }

  static CatalogState catalog() {
    Map<Integer, CatalogObject> objects = new HashMap<>();
    Map<Integer, JobRecord> jobs = new HashMap<>();
    Map<Integer, FragmentGraph> graphs = new HashMap<>();
    List<BackfillHistory.Entry> history = new ArrayList<>();
    int actorId = 1;
    String definition = "CREATE MATERIALIZED VIEW mv AS SELECT k, v % 10 AS g FROM t WHERE v > 0";
    for (int j = 1; j <= JOBS; j++) {
      objects.put(
          j,
          new CatalogObject(
              j, ObjectKind.MATERIALIZED_VIEW, "mv_" + j, 1, j, definition, List.of(), List.of()));
      int scan = j * 10 + 1;
      int project = j * 10 + 2;
      List<FragmentGraph.Fragment> fragments =
          List.of(
              new FragmentGraph.Fragment(
                  scan, FragmentDistribution.HASH, List.of(), List.of(j * 10), new byte[0]),
              new FragmentGraph.Fragment(
                  project,
                  FragmentDistribution.HASH,
                  List.of(new FragmentGraph.Edge(scan, DispatcherKind.HASH, List.of(0), false)),
                  List.of(j),
                  new byte[0]));
      List<FragmentGraph.Actor> actors = new ArrayList<>();
      List<BackfillActor> backfill = new ArrayList<>();
      List<BackfillState> states = new ArrayList<>();
      int half = ACTORS_PER_JOB / 2;
      for (int i = 0; i < ACTORS_PER_JOB; i++) {
        boolean scans = i < half;
        int slot = scans ? i : i - half;
        VnodeBitmap vnodes = VnodeBitmap.range(slot * 256 / half, (slot + 1) * 256 / half);
        actors.add(
            new FragmentGraph.Actor(
                actorId,
                scans ? scan : project,
                NODES.get(i % NODES.size()),
                vnodes,
                scans ? List.of() : List.of(actorId - half)));
        if (scans) {
          backfill.add(BackfillActor.table(actorId));
          states.add(new BackfillState.ConsumingUpstream(1L << 16, 1_000L * slot));
        }
        actorId++;
      }
      graphs.put(j, new FragmentGraph(j, "kryo", fragments, actors));
      TrackerSnapshot.JobSnapshot snap =
          new TrackerSnapshot.JobSnapshot(
              new JobSpec(j, BackfillMode.values()[0], backfill, Map.of(3, 1)),
              0,
              0,
              states,
              Map.of(),
              0.4,
              5_000,
              1,
              1,
              1);
      jobs.put(
          j,
          new JobRecord(
              j,
              definition,
              JobStatus.CREATING,
              CreateType.BACKGROUND,
              1,
              List.of(j),
              ProgressSnapshotCodec.encode(9L << 16, 1000, snap)));
      if (history.size() < BackfillHistory.MAX_ENTRIES) {
        history.add(
            new BackfillHistory.Entry(
                1_000 + j, "old_" + j, definition, 1, 2, 1_000_000, 1e4, 2e4, 0.01, 2, 60, true));
      }
    }
    return new CatalogState(
        SystemParams.DEFAULTS,
        objects,
        jobs,
        graphs,
        Optional.empty(),
        new NextId(actorId),
        RecoveryLog.EMPTY,
        new BackfillHistory(history));
  }

  final HttpClient http = HttpClient.newHttpClient();

  /** The median time (ms) and the size of {@code path}'s answer over {@code n} GETs. */
  record Measured(String path, double medianMs, int bytes, String body) {}

  Measured measure(int port, String path, int n) throws Exception {
    double[] ms = new double[n];
    String body = "";
    for (int i = 0; i < n; i++) {
      long t0 = System.nanoTime();
      HttpResponse<String> r =
          http.send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
              HttpResponse.BodyHandlers.ofString());
      ms[i] = (System.nanoTime() - t0) / 1e6;
      assertThat(r.statusCode()).as("GET %s", path).isEqualTo(200);
      body = r.body();
    }
    Arrays.sort(ms);
    Measured m = new Measured(path, ms[n / 2], body.length(), body);
    System.out.printf("scale %-32s median %7.2f ms  %8d bytes%n", path, m.medianMs(), m.bytes());
    return m;
  }

  static int count(String body, String regex) {
    Matcher m = Pattern.compile(regex).matcher(body);
    int n = 0;
    while (m.find()) {
      n++;
    }
    return n;
  }

  @Test
  void everyDocumentAPagePollsStaysBoundedWith200JobsAnd10000Actors() throws Exception {
    Synthetic view = new Synthetic(catalog());
    assertThat(view.state.fragments().values().stream().mapToInt(g -> g.actors().size()).sum())
        .isEqualTo(JOBS * ACTORS_PER_JOB);
    try (MetaHttpServer server = new MetaHttpServer("127.0.0.1", 0, view, new MetaMetrics(view))) {
      int port = server.address().getPort();
      int n = 20;
      measure(port, "/api/jobs", 3); // warm up the server and the JIT
      measure(port, "/api/jobs/100", 3);

      Measured list = measure(port, "/api/jobs", n);
      assertThat(count(list.body(), "\"createType\"")).isEqualTo(JOBS);
      assertThat(list.bytes()).as("the job list: under 1 KiB per job").isLessThan(JOBS * 1024);

      Measured detail = measure(port, "/api/jobs/100", n);
      assertThat(count(detail.body(), "\"actorId\""))
          .as("a job's page lists its backfill actors (one page)")
          .isEqualTo(ACTORS_PER_JOB / 2);
      assertThat(detail.body()).contains("\"kind\":\"DIVISION_BY_ZERO\"");
      assertThat(detail.bytes())
          .as("a job's page does not grow with the cluster")
          .isLessThan(32_768);

      Measured page = measure(port, "/api/jobs/100/actors?offset=10&limit=5", n);
      assertThat(count(page.body(), "\"actorId\"")).isEqualTo(5);
      assertThat(page.body()).contains("\"total\":" + ACTORS_PER_JOB / 2);
      assertThat(page.bytes()).isLessThan(4_096);

      Measured cluster = measure(port, "/api/cluster/detail", n);
      assertThat(count(cluster.body(), "\"heapUsedBytes\":1073741824")).isEqualTo(NODES.size());
      Matcher perNode = Pattern.compile("\"actors\":(\\d+)").matcher(cluster.body());
      int actors = 0;
      while (perNode.find()) {
        actors += Integer.parseInt(perNode.group(1));
      }
      assertThat(actors).as("every actor counted on its node").isEqualTo(JOBS * ACTORS_PER_JOB);
      assertThat(cluster.bytes())
          .as("the cluster page: per node and table, not per actor")
          .isLessThan(16_384);

      Measured history = measure(port, "/api/history?limit=20", n);
      assertThat(count(history.body(), "\"progressError\"")).isEqualTo(20);
      assertThat(history.bytes()).isLessThan(20 * 1024);

      Measured series = measure(port, "/api/jobs/100/timeseries?since=0", n);
      assertThat(series.bytes()).isLessThan(1_024);
    }
  }
}
