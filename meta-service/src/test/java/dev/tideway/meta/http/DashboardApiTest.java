package dev.tideway.meta.http;

import static dev.tideway.meta.cluster.ZkFixture.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.common.time.Clock;
import dev.tideway.meta.MetaConfig;
import dev.tideway.meta.MetaServer;
import dev.tideway.meta.catalog.CatalogCore;
import dev.tideway.meta.cluster.ZkFixture;
import dev.tideway.meta.fragment.Plans;
import dev.tideway.protocol.catalog.BackfillHistory;
import dev.tideway.protocol.catalog.CreateType;
import dev.tideway.protocol.catalog.KryoPlanCodec;
import dev.tideway.protocol.catalog.NodeInfo;
import dev.tideway.protocol.catalog.ObjectKind;
import dev.tideway.protocol.meta.DdlCommand;
import dev.tideway.protocol.meta.DdlReply;
import dev.tideway.protocol.store.MetaPaths;
import dev.tideway.protocol.store.NodeRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;

/**
 * Every endpoint the dashboard's charts, job page, history and cluster page read, on a leader and a
 * standby: what they answer, 404 for ids and paths that do not exist, 405 for the wrong method, 400
 * for a bad parameter, 403 for job control from an address not allowed.
 */
class DashboardApiTest {
  final HttpClient http = HttpClient.newHttpClient();

  HttpResponse<String> call(int port, String method, String path, String body) throws Exception {
    return call(port, method, path, body, true);
  }

  /** With {@code page}, the request carries the header the job page's script sends. */
  HttpResponse<String> call(int port, String method, String path, String body, boolean page)
      throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path));
    if (page) {
      b.header("X-Tideway-Action", "1");
    }
    HttpRequest req =
        b.method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body))
            .build();
    return http.send(req, HttpResponse.BodyHandlers.ofString());
  }

  HttpResponse<String> call(MetaServer m, String method, String path) throws Exception {
    return call(m.http().address().getPort(), method, path, null);
  }

  /** The body of a GET, or "" when the call fails (for polling). */
  String body(MetaServer m, String path) {
    try {
      return call(m, "GET", path).body();
    } catch (Exception e) {
      return "";
    }
  }

  MetaServer start(ZkFixture zk, String name) throws Exception {
    MetaConfig c =
        new MetaConfig(
            "dash-test", zk.connectString(), name, name + ":5690", "127.0.0.1", 0, 2_000, 10_000);
    return MetaServer.start(c, KryoPlanCodec.create(), Clock.system());
  }

  DdlReply submit(MetaServer m, DdlCommand c) throws Exception {
    return m.ddl().submit(c).get(5, TimeUnit.SECONDS);
  }

  @Test
  void theDashboardApiAnswersEveryEndpointAndRefusesBadIdsAndMethods() throws Exception {
    try (ZkFixture zk = new ZkFixture()) {
      CuratorFramework computeClient = zk.newClient();
      NodeRegistry compute = new NodeRegistry(computeClient, new MetaPaths("dash-test"));
      compute.register(new NodeInfo("compute", "compute-1:5688", 1, 2, 0));
      MetaServer a = start(zk, "meta-a");
      awaitTrue("a leads", 10_000, () -> a.isLeader() && a.isReady());
      MetaServer b = start(zk, "meta-b");
      int schema =
          a.catalog()
              .orElseThrow()
              .find(1, CatalogCore.DEFAULT_SCHEMA, ObjectKind.SCHEMA)
              .orElseThrow()
              .id();
      var up = (DdlReply.IdsReserved) submit(a, new DdlCommand.ReserveIds(3));
      int upstream =
          ((DdlReply.JobAccepted)
                  submit(
                      a,
                      new DdlCommand.CreateStreamingJob(
                          ObjectKind.MATERIALIZED_VIEW,
                          schema,
                          "counts",
                          "CREATE MATERIALIZED VIEW counts AS ...",
                          Plans.countByK(up.from(), up.from() + 1, up.from() + 2),
                          CreateType.BACKGROUND)))
              .job()
              .jobId();
      submit(a, new DdlCommand.FinishJob(upstream, new byte[0]));
      var ids = (DdlReply.IdsReserved) submit(a, new DdlCommand.ReserveIds(2));
      String definition = "CREATE MATERIALIZED VIEW \"x</script>\" AS SELECT '\"<b>' FROM counts";
      int job =
          ((DdlReply.JobAccepted)
                  submit(
                      a,
                      new DdlCommand.CreateStreamingJob(
                          ObjectKind.MATERIALIZED_VIEW,
                          schema,
                          "x</script>",
                          definition,
                          Plans.mvOnMv(upstream, ids.from(), ids.from() + 1),
                          CreateType.BACKGROUND)))
              .job()
              .jobId();

      // the job: definition (JSON-escaped, never raw), graph, backfill actors with their rows
      String detail = call(a, "GET", "/api/jobs/" + job).body();
      assertThat(detail)
          .contains("\"name\":\"x</script>\"")
          .contains("\"definition\":\"CREATE MATERIALIZED VIEW \\\"x</script>\\\"")
          .contains("\"status\":\"CREATING\"")
          .contains("\"operators\":[\"Materialize\",\"StreamScan\"]")
          .contains("\"kind\":\"NO_SHUFFLE\"")
          .contains("\"compute-1:5688\"")
          .contains("\"phase\":\"NOT_REPORTED\"");
      String actors = call(a, "GET", "/api/jobs/" + job + "/actors?offset=0&limit=1").body();
      assertThat(actors).contains("\"limit\":1").contains("\"consumedRows\":0");
      assertThat(call(b, "GET", "/api/jobs/" + job).body())
          .as("a standby reads the job from ZooKeeper")
          .contains("\"leader\":false")
          .contains("\"name\":\"x</script>\"");
      assertThat(call(a, "GET", "/api/jobs/" + job + "/timeseries?since=0").body())
          .contains("\"progress\":{\"t\":[]");
      assertThat(call(a, "GET", "/api/timeseries").body())
          .contains("\"barriers\":{\"t\":[],\"collectP50Ms\":[]")
          .contains("\"recoveries\":[]");
      assertThat(call(a, "GET", "/api/cluster/detail").body())
          .contains("\"metaRole\":\"leader\"")
          .contains("\"metaRole\":\"standby\"")
          .contains("\"actors\":")
          .contains("\"heapMaxBytes\":");

      // history: persisted in the catalog, read by the standby too, newest first
      for (int i = 1; i <= 2; i++) {
        submit(
            a,
            new DdlCommand.RecordBackfill(
                new BackfillHistory.Entry(
                    100 + i,
                    "h" + i,
                    "CREATE h" + i,
                    1000,
                    5000,
                    4000,
                    1000,
                    1500,
                    0.03 * i,
                    2000,
                    4,
                    true)));
      }
      awaitTrue(
          "the standby sees the history",
          10_000,
          () -> body(b, "/api/history").contains("\"name\":\"h2\""));
      String history = call(a, "GET", "/api/history").body();
      assertThat(history.indexOf("\"h2\"")).isLessThan(history.indexOf("\"h1\""));
      assertThat(history).contains("\"progressError\":0.06").contains("\"total\":2");
      assertThat(call(a, "GET", "/api/history?limit=1&offset=1").body())
          .contains("\"h1\"")
          .doesNotContain("\"h2\"");

      // pages, uPlot from its WebJar
      assertThat(call(a, "GET", "/jobs/" + job).body()).contains("chart-progress");
      assertThat(call(a, "GET", "/cluster").body()).contains("/api/cluster/detail");
      var js = call(a, "GET", "/webjars/uplot/1.6.30/dist/uPlot.iife.min.js");
      assertThat(js.statusCode()).isEqualTo(200);
      assertThat(js.body()).contains("uPlot").hasSizeGreaterThan(40_000);
      assertThat(call(a, "GET", "/webjars/uplot/1.6.30/dist/uPlot.min.css").statusCode())
          .isEqualTo(200);

      // bad ids and paths: 404
      for (String path :
          new String[] {
            "/api/jobs/999999",
            "/api/jobs/999999/actors",
            "/api/jobs/abc",
            "/api/jobs/" + job + "/nope",
            "/jobs/999999",
            "/jobs/abc",
            "/webjars/uplot/1.6.30/package.json",
            "/webjars/../dashboard.html"
          }) {
        assertThat(call(a, "GET", path).statusCode()).as(path).isEqualTo(404);
      }
      assertThat(call(a, "POST", "/api/jobs/999999/cancel").statusCode()).isEqualTo(404);
      // wrong methods: 405
      for (String[] mp :
          new String[][] {
            {"POST", "/api/timeseries"},
            {"POST", "/api/history"},
            {"DELETE", "/api/cluster/detail"},
            {"POST", "/api/jobs/" + job},
            {"PUT", "/api/jobs/" + job + "/actors"},
            {"POST", "/api/jobs/" + job + "/timeseries"},
            {"GET", "/api/jobs/" + job + "/cancel"},
            {"GET", "/api/jobs/" + job + "/rate-limit"},
            {"POST", "/jobs/" + job},
            {"POST", "/cluster"}
          }) {
        assertThat(call(a, mp[0], mp[1]).statusCode()).as(mp[0] + " " + mp[1]).isEqualTo(405);
      }
      // bad parameters: 400
      assertThat(call(a, "GET", "/api/timeseries?since=yesterday").statusCode()).isEqualTo(400);
      assertThat(call(a, "GET", "/api/jobs/" + job + "/actors?limit=0").statusCode())
          .isEqualTo(400);
      int port = a.http().address().getPort();
      assertThat(call(port, "POST", "/api/jobs/" + job + "/rate-limit", "rowsPerSecond=abc"))
          .extracting(HttpResponse::statusCode)
          .isEqualTo(400);

      // control from an address the configuration does not allow: 403, nothing changes
      try (MetaHttpServer closed =
          new MetaHttpServer(
              "127.0.0.1",
              0,
              a,
              new MetaMetrics(a),
              a,
              AllowedAddresses.parse(java.util.List.of("10.0.0.0/8", "192.168.7.1")))) {
        int p = closed.address().getPort();
        assertThat(call(p, "POST", "/api/jobs/" + job + "/cancel", "").statusCode()).isEqualTo(403);
        assertThat(call(p, "POST", "/api/jobs/" + job + "/rate-limit", "rowsPerSecond=5"))
            .extracting(HttpResponse::statusCode)
            .isEqualTo(403);
      }
      // a form posted by another web site (no header: the browser would need a CORS preflight)
      assertThat(call(port, "POST", "/api/jobs/" + job + "/cancel", "", false).statusCode())
          .isEqualTo(403);
      assertThat(a.catalog().orElseThrow().jobs()).containsKey(job);

      // allowed (a configured block that holds this client; loopback by default): the throttle
      // is the ALTER's, the cancel is CANCEL JOBS
      HttpResponse<String> throttled;
      try (MetaHttpServer open =
          new MetaHttpServer(
              "127.0.0.1",
              0,
              a,
              new MetaMetrics(a),
              a,
              AllowedAddresses.parse(java.util.List.of("10.0.0.0/8", "127.0.0.1/32")))) {
        throttled =
            call(
                open.address().getPort(),
                "POST",
                "/api/jobs/" + job + "/rate-limit",
                "rowsPerSecond=25");
      }
      assertThat(throttled.statusCode()).isEqualTo(200);
      assertThat(throttled.body()).contains("\"rowsPerSecond\":25");
      assertThat(call(a, "GET", "/api/jobs/" + job).body())
          .contains("\"rowsPerSecondPerActor\":25");
      assertThat(call(a, "GET", "/api/jobs/" + job + "/actors").body())
          .contains("\"rateLimit\":25");
      var rejected = call(port, "POST", "/api/jobs/" + upstream + "/rate-limit", "rowsPerSecond=5");
      assertThat(rejected.statusCode()).as("a created job has no backfill").isEqualTo(409);
      assertThat(call(port, "POST", "/api/jobs/" + job + "/cancel", "").statusCode())
          .isEqualTo(200);
      assertThat(a.catalog().orElseThrow().jobs()).doesNotContainKey(job);
      assertThat(call(a, "GET", "/api/jobs/" + job).statusCode()).isEqualTo(404);

      b.close();
      a.close();
      compute.close();
      computeClient.close();
    }
  }
}
