package dev.tideway.meta;

import static dev.tideway.meta.cluster.ZkFixture.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.common.time.Clock;
import dev.tideway.meta.catalog.CatalogCore;
import dev.tideway.meta.cluster.ZkFixture;
import dev.tideway.meta.fragment.Plans;
import dev.tideway.protocol.catalog.CreateType;
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

/** Two meta processes behind their HTTP endpoints: health, cluster, jobs and metrics. */
class MetaServerHttpTest {
  final HttpClient http = HttpClient.newHttpClient();

  HttpResponse<String> call(MetaServer m, String method, String path) throws Exception {
    var addr = m.http().address();
    HttpRequest req =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + addr.getPort() + path))
            .method(method, HttpRequest.BodyPublishers.noBody())
            .build();
    return http.send(req, HttpResponse.BodyHandlers.ofString());
  }

  MetaServer start(ZkFixture zk, String name) throws Exception {
    MetaConfig c =
        new MetaConfig(
            "http-test", zk.connectString(), name, name + ":5690", "127.0.0.1", 0, 2_000, 10_000);
    return MetaServer.start(c, Plans.OPERATOR_IDS, Clock.system());
  }

  @Test
  void endpointsServeHealthClusterJobsAndMetrics() throws Exception {
    try (ZkFixture zk = new ZkFixture()) {
      CuratorFramework computeClient = zk.newClient();
      NodeRegistry compute = new NodeRegistry(computeClient, new MetaPaths("http-test"));
      compute.register(new NodeInfo("compute", "compute-1:5688", 1, 2, 0));
      MetaServer a = start(zk, "meta-a");
      awaitTrue("a leads", 10_000, () -> a.isLeader() && a.isReady());
      MetaServer b = start(zk, "meta-b");
      assertThat(a.http().address().getAddress().isLoopbackAddress()).isTrue();

      var ids =
          (DdlReply.IdsReserved)
              a.ddl().submit(new DdlCommand.ReserveIds(3)).get(5, TimeUnit.SECONDS);
      int schema =
          a.catalog()
              .orElseThrow()
              .find(1, CatalogCore.DEFAULT_SCHEMA, ObjectKind.SCHEMA)
              .orElseThrow()
              .id();
      a.ddl()
          .submit(
              new DdlCommand.CreateStreamingJob(
                  ObjectKind.MATERIALIZED_VIEW,
                  schema,
                  "mv_x",
                  "CREATE MATERIALIZED VIEW mv_x",
                  Plans.countByK(ids.from(), ids.from() + 1, ids.from() + 2),
                  CreateType.BACKGROUND))
          .get(5, TimeUnit.SECONDS);

      assertThat(call(a, "GET", "/health/live").statusCode()).isEqualTo(200);
      assertThat(call(a, "GET", "/health/ready").body()).isEqualTo("leader\n");
      assertThat(call(b, "GET", "/health/ready").body()).isEqualTo("standby\n");
      String cluster = call(b, "GET", "/api/cluster").body();
      assertThat(cluster)
          .contains("\"clusterId\":\"http-test\"")
          .contains("\"address\":\"meta-a:5690\"")
          .contains("\"role\":\"standby\"")
          .contains("\"address\":\"compute-1:5688\"");
      for (MetaServer m : new MetaServer[] {a, b}) {
        assertThat(call(m, "GET", "/api/jobs").body())
            .contains("\"name\":\"mv_x\"")
            .contains("\"status\":\"CREATING\"")
            .contains("\"createType\":\"BACKGROUND\"");
      }
      String metricsA = call(a, "GET", "/metrics").body();
      assertThat(metricsA)
          .contains("tideway_meta_is_leader 1.0")
          .contains("tideway_ddl_jobs{state=\"CREATING\"} 1.0");
      assertThat(call(b, "GET", "/metrics").body()).contains("tideway_meta_is_leader 0.0");
      assertThat(call(a, "POST", "/api/jobs").statusCode()).isEqualTo(405);
      // the dashboard page at the root, nothing else under it
      var page = call(a, "GET", "/");
      assertThat(page.statusCode()).isEqualTo(200);
      assertThat(page.headers().firstValue("Content-Type")).hasValue("text/html; charset=utf-8");
      assertThat(page.body()).contains("<title>Tideway</title>").contains("/api/ddl-progress");
      assertThat(call(a, "GET", "/nope").statusCode()).isEqualTo(404);

      // ZooKeeper gone: the standby is no longer ready, but every process stays live
      zk.stop();
      awaitTrue("b not ready", 10_000, () -> !b.isReady());
      assertThat(call(b, "GET", "/health/ready").statusCode()).isEqualTo(503);
      assertThat(call(b, "GET", "/health/live").statusCode()).isEqualTo(200);
      assertThat(call(a, "GET", "/health/live").statusCode()).isEqualTo(200);
      zk.restart();
      awaitTrue("b ready again", 10_000, b::isReady);
      b.close();
      a.close();
      compute.close();
      computeClient.close();
    }
  }
}
