package dev.tideway.meta.barrier;

import static dev.tideway.meta.cluster.ZkFixture.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.barrier.global.BarrierConfig;
import dev.tideway.barrier.progress.ProgressConfig;
import dev.tideway.common.time.Clock;
import dev.tideway.meta.MetaConfig;
import dev.tideway.meta.MetaServer;
import dev.tideway.meta.catalog.CatalogCore;
import dev.tideway.meta.cluster.ZkFixture;
import dev.tideway.meta.fragment.Plans;
import dev.tideway.protocol.catalog.FragmentGraph;
import dev.tideway.protocol.catalog.JobStatus;
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

/** A wired meta process runs the barrier loop while leading and serves the job's progress. */
class MetaServerRunsBarrierLoopTest {
  @Test
  void jobProgressIsServedWhileBackfillingAndTheJobBecomesCreated() throws Exception {
    FakeCompute compute = new FakeCompute(2, 400);
    FakeVersions versions = new FakeVersions();
    try (ZkFixture zk = new ZkFixture()) {
      CuratorFramework nodeClient = zk.newClient();
      NodeRegistry nodes = new NodeRegistry(nodeClient, new MetaPaths("wired"));
      nodes.register(new NodeInfo("compute", "compute-1:5688", 1, 2, 0));
      var wiring =
          new BarrierRunner.Wiring<String>(
              new BarrierConfig(20, 1, 4, 10_000),
              ProgressConfig.DEFAULT,
              m -> compute.clientFor(m::onCompleted),
              versions,
              u -> {});
      MetaConfig config =
          new MetaConfig(
              "wired", zk.connectString(), "meta-a", "meta-a:5690", "127.0.0.1", 0, 2_000, 10_000);
      try (MetaServer meta =
          MetaServer.start(config, KryoPlanCodec.create(), Clock.system(), wiring)) {
        awaitTrue("ready leader", 10_000, () -> meta.isLeader() && meta.isReady());
        int schema =
            meta.catalog()
                .orElseThrow()
                .find(1, CatalogCore.DEFAULT_SCHEMA, ObjectKind.SCHEMA)
                .orElseThrow()
                .id();
        var ids =
            (DdlReply.IdsReserved)
                meta.ddl().submit(new DdlCommand.ReserveIds(4)).get(5, TimeUnit.SECONDS);
        int table = ids.from() + 1;
        versions.setKeyCount(table, 800);
        meta.ddl()
            .submit(
                BarrierFailoverTest.create(
                    ObjectKind.TABLE, schema, "t", Plans.sourceTable(ids.from(), table)))
            .get(5, TimeUnit.SECONDS);
        // the first job starts the world with a recovery; a job accepted after it rides on an Add
        awaitTrue("table running", 10_000, () -> compute.resets.get() > 0);
        var mv =
            (DdlReply.JobAccepted)
                meta.ddl()
                    .submit(
                        BarrierFailoverTest.create(
                            ObjectKind.MATERIALIZED_VIEW,
                            schema,
                            "mv",
                            Plans.mvOnMv(table, ids.from() + 2, ids.from() + 3)))
                    .get(5, TimeUnit.SECONDS);
        compute.addBackfillActors(
            mv.graph().actors().stream().map(FragmentGraph.Actor::actorId).toList());
        long job = mv.job().jobId();
        var foreground = meta.ddl().awaitCreated((int) job);
        assertThat(foreground).as("a foreground DDL still waits while backfilling").isNotDone();

        awaitTrue(
            "progress above 10%",
            20_000,
            () ->
                meta.progress().containsKey(job) && meta.progress().get(job).displayRatio() > 0.1);
        String body = get(meta, "/api/ddl-progress");
        assertThat(body)
            .contains("\"jobId\":" + job)
            .contains("\"phase\":")
            .contains("\"totalRows\":800");
        assertThat(get(meta, "/metrics"))
            .contains("tideway_ddl_progress_ratio{job_id=\"" + job + "\"}")
            .contains("tideway_ddl_rows_per_second{job_id=\"" + job + "\"}")
            .contains("tideway_ddl_consumed_rows{job_id=\"" + job + "\"}")
            .contains("# TYPE tideway_barrier_latency_seconds histogram")
            .contains("tideway_barrier_latency_seconds_bucket{kind=\"CHECKPOINT\"")
            .contains("tideway_barrier_commit_duration_seconds_count")
            .contains("tideway_barrier_inflight")
            .contains("tideway_recovery_total{cause=\"leader_elected\"} 1");
        String eta = "tideway_ddl_eta_seconds{job_id=\"" + job + "\"}";
        awaitTrue(
            "an ETA once the backfill has a rate",
            20_000,
            () -> {
              try {
                return get(meta, "/metrics").contains(eta);
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });
        String barriers = get(meta, "/api/barriers");
        assertThat(barriers)
            .contains("\"leader\":true")
            .contains("\"kind\":\"CHECKPOINT\"")
            .contains("\"kind\":\"INITIAL\"")
            .contains("\"mutation\":\"Add\"")
            .containsPattern("\"committedAtMs\":[1-9]");
        awaitTrue(
            "created",
            30_000,
            () -> meta.catalog().orElseThrow().jobs().get((int) job).status() == JobStatus.CREATED);
      } finally {
        nodes.close();
        nodeClient.close();
      }
    }
  }

  static String get(MetaServer m, String path) throws Exception {
    HttpRequest req =
        HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + m.http().address().getPort() + path))
            .build();
    return HttpClient.newHttpClient().send(req, HttpResponse.BodyHandlers.ofString()).body();
  }
}
