package dev.tideway.it.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tideway.cli.cluster.Playground;
import dev.tideway.cli.local.Probes;
import dev.tideway.common.time.Clock;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/** What the playground Kafka tests share: a playground, a client, a producer, waiting for rows. */
final class KafkaIts {
  private KafkaIts() {}

  /** A playground in {@code dir} on free ports, checkpointing every 100 ms. */
  static Playground start(Path dir) throws Exception {
    return Playground.start(
        new Playground.Options(dir, "127.0.0.1", 0, free(), free(), free(), 100), Clock.system());
  }

  static Connection connect(Playground p) throws SQLException {
    return DriverManager.getConnection(
        "jdbc:postgresql://127.0.0.1:" + p.pgPort() + "/dev?user=root");
  }

  /** Waits up to {@code seconds} for {@code sql} to answer exactly {@code want}, in any order. */
  static void awaitRows(Statement st, String sql, List<String> want, long seconds)
      throws Exception {
    long deadline = System.nanoTime() + seconds * 1_000_000_000L;
    List<String> got = List.of();
    while (System.nanoTime() < deadline) {
      got = rows(st, sql);
      if (got.equals(want.stream().sorted().toList())) {
        return;
      }
      Thread.sleep(200);
    }
    assertThat(got).as(sql).containsExactlyInAnyOrderElementsOf(want);
  }

  /** The body of {@code GET http://127.0.0.1:port/path}. */
  static String httpGet(int port, String path) throws Exception {
    return java.net.http.HttpClient.newHttpClient()
        .send(
            java.net.http.HttpRequest.newBuilder(
                    java.net.URI.create("http://127.0.0.1:" + port + path))
                .build(),
            java.net.http.HttpResponse.BodyHandlers.ofString())
        .body();
  }

  /** What answers a meta dashboard's {@code /api/jobs}. */
  interface JobsJson {
    String get() throws Exception;
  }

  /**
   * Waits up to 30 s for the dashboard's jobs ({@code jobs}) to show every sink with the delivered
   * epoch {@code rw_sinks} reads back from Kafka: the sink actors report it to meta with their
   * barriers (meta itself never talks to Kafka). Only sinks carry delivery fields.
   */
  static void awaitDashboardDeliveries(Statement st, JobsJson jobs) throws Exception {
    Map<String, Long> kafkaSays = new TreeMap<>();
    for (String row : rows(st, "SELECT name, delivered_epoch FROM rw_catalog.rw_sinks")) {
      String[] f = row.split("\\|");
      kafkaSays.put(f[0], Long.valueOf(f[1]));
    }
    Map<String, Long> dashboardSays = new TreeMap<>();
    long until = System.nanoTime() + 30_000_000_000L;
    while (!dashboardSays.equals(kafkaSays) && System.nanoTime() < until) {
      dashboardSays.clear();
      for (JsonNode j : new ObjectMapper().readTree(jobs.get())) {
        if ("SINK".equals(j.path("kind").asText())) {
          assertThat(j.path("deliveredAtMs").isNull()).isEqualTo(j.path("deliveredEpoch").isNull());
          if (!j.path("deliveredEpoch").isNull()) {
            dashboardSays.put(j.path("name").asText(), j.path("deliveredEpoch").asLong());
          }
        } else {
          assertThat(j.has("deliveredEpoch")).as("only sinks deliver").isFalse();
        }
      }
      Thread.sleep(200);
    }
    assertThat(dashboardSays).as("delivered epochs on the dashboard").isEqualTo(kafkaSays);
  }

  static List<String> rows(Statement st, String sql) throws SQLException {
    return Probes.sortedRows(st, sql, String::valueOf);
  }

  /** A producer of raw bytes to {@code servers}. */
  static KafkaProducer<byte[], byte[]> producer(String servers) {
    Properties p = new Properties();
    p.put("bootstrap.servers", servers);
    p.put("key.serializer", ByteArraySerializer.class.getName());
    p.put("value.serializer", ByteArraySerializer.class.getName());
    p.put("linger.ms", "5");
    return new KafkaProducer<>(p);
  }

  static int free() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
