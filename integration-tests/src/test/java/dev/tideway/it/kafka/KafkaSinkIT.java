package dev.tideway.it.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tideway.barrier.local.LocalBarrierManager;
import dev.tideway.cli.cluster.Playground;
import dev.tideway.common.fault.FailPoints;
import dev.tideway.common.time.Clock;
import dev.tideway.compute.executor.sink.SinkExecutor;
import dev.tideway.connector.kafka.EmbeddedKafka;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kafka sinks on a playground against a broker in the test JVM, read back as a consumer with {@code
 * isolation.level = read_committed} reads them. Recoveries are forced at the two places that
 * matter: before a checkpoint is synced (its epoch, and the log rows of the sink, are thrown away)
 * and right after an epoch reached Kafka but before the sink forgot it (the recovery must not send
 * it again). The ledger is every change a FLUSH confirmed; the topic must hold each of them exactly
 * once, in order per key, and nothing else.
 */
class KafkaSinkIT {
  @TempDir Path dir;

  @AfterEach
  void resetFailPoints() {
    FailPoints.reset();
  }

  @Test
  void aSinkWritesEveryCommittedChangeExactlyOnceThroughRecoveries() throws Exception {
    int metricsPort = free();
    int metaHttpPort = free();
    try (EmbeddedKafka kafka = EmbeddedKafka.start();
        Playground p =
            Playground.start(
                new Playground.Options(
                    dir, "127.0.0.1", 0, metaHttpPort, free(), free(), metricsPort, 100),
                Clock.system());
        Connection c =
            DriverManager.getConnection(
                "jdbc:postgresql://127.0.0.1:" + p.pgPort() + "/dev?user=root");
        Statement st = c.createStatement()) {
      kafka.createTopic("changes", 2);
      kafka.createTopic("totals", 1);
      String with =
          " WITH (connector = 'kafka', topic = '%s', properties.bootstrap.server = '"
              + kafka.bootstrapServers()
              + "')";
      st.execute("CREATE TABLE t (k INT PRIMARY KEY, v INT)");
      st.execute("INSERT INTO t SELECT x, x FROM generate_series(1, 50) AS x");
      st.execute("FLUSH");
      // on existing data: the sink backfills the table first
      st.execute(
          "CREATE SINK changes FROM t"
              + with.formatted("changes")
              + " FORMAT DEBEZIUM ENCODE JSON");
      st.execute(
          "CREATE SINK totals AS SELECT k % 3 AS g, count(*) AS n, sum(v) AS s FROM t GROUP BY k % 3"
              + with.formatted("totals")
              + " FORMAT UPSERT ENCODE JSON");
      Map<Integer, Integer> expected = new TreeMap<>();
      for (int k = 1; k <= 50; k++) {
        expected.put(k, k);
      }
      int next = 51;
      long afterDeliverFailures = 0;
      for (int round = 0; round < 8; round++) {
        Map<Integer, Integer> mine = new HashMap<>();
        StringBuilder values = new StringBuilder();
        for (int i = 0; i < 20; i++, next++) {
          values
              .append(i == 0 ? "" : ", ")
              .append("(")
              .append(next)
              .append(", ")
              .append(next)
              .append(")");
          mine.put(next, next);
        }
        st.execute("INSERT INTO t VALUES " + values);
        if (round % 4 == 1) {
          FailPoints.enable(LocalBarrierManager.FP_BEFORE_SYNC, new FailPoints.FailOnHit(1));
        } else if (round % 4 == 3) {
          FailPoints.enable(SinkExecutor.FP_AFTER_DELIVER, new FailPoints.FailOnHit(1));
        }
        try {
          st.execute("FLUSH");
          expected.putAll(mine);
        } catch (SQLException e) {
          assertThat(e.getSQLState()).as(e.getMessage()).isEqualTo("40000");
        }
        if (round % 4 == 3) { // the epoch goes to Kafka once the node saw it committed: wait for it
          long until = System.nanoTime() + Duration.ofSeconds(30).toNanos();
          while (FailPoints.hits(SinkExecutor.FP_AFTER_DELIVER) == 0 && System.nanoTime() < until) {
            Thread.sleep(50);
          }
          afterDeliverFailures += FailPoints.hits(SinkExecutor.FP_AFTER_DELIVER);
        }
        FailPoints.reset();
      }
      assertThat(afterDeliverFailures)
          .as("recoveries right after a delivery")
          .isGreaterThanOrEqualTo(2);
      st.execute("FLUSH");
      List<String> table = rows(st, "SELECT k, v FROM t ORDER BY k");
      List<String> want = new ArrayList<>();
      expected.forEach((k, v) -> want.add(k + "|" + v));
      assertThat(table)
          .as("the table holds what FLUSH confirmed")
          .containsExactlyInAnyOrderElementsOf(want);

      // every row of the table was created exactly once in the topic, and nothing else
      Pattern created = Pattern.compile("\"after\":\\{\"k\":(\\d+),\"v\":(\\d+)\\},\"op\":\"c\"");
      Map<Integer, Integer> seen = new TreeMap<>();
      List<Integer> duplicates = new ArrayList<>();
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (System.nanoTime() < deadline) {
        seen.clear();
        duplicates.clear();
        for (ConsumerRecord<String, String> r : readAll(kafka, "changes")) {
          Matcher m = created.matcher(r.value());
          assertThat(m.find()).as(r.value()).isTrue();
          if (seen.put(Integer.valueOf(m.group(1)), Integer.valueOf(m.group(2))) != null) {
            duplicates.add(Integer.valueOf(m.group(1)));
          }
        }
        if (seen.size() >= expected.size()) {
          break;
        }
        Thread.sleep(500);
      }
      assertThat(duplicates).as("changes written twice").isEmpty();
      assertThat(seen).isEqualTo(expected);

      // the upsert topic's last value per key is the view's current row
      Map<String, String> last = new TreeMap<>();
      for (ConsumerRecord<String, String> r : readAll(kafka, "totals")) {
        last.put(r.key(), r.value());
      }
      for (String row : rows(st, "SELECT k % 3, count(*), sum(v) FROM t GROUP BY k % 3")) {
        String[] f = row.split("\\|");
        assertThat(last.get("{\"g\":" + f[0] + "}"))
            .isEqualTo("{\"g\":" + f[0] + ",\"n\":" + f[1] + ",\"s\":" + f[2] + "}");
      }

      assertThat(rows(st, "SHOW SINKS")).containsExactly("changes", "totals");
      assertThat(rows(st, "SELECT name, topic, format, delivery FROM rw_catalog.rw_sinks"))
          .containsExactly(
              "changes|changes|debezium|exactly_once", "totals|totals|upsert|exactly_once");
      // how far each sink's delivery is, read back from Kafka: every change is there, so the
      // delivered epoch is recent and no error stands
      assertThat(
              rows(
                  st,
                  "SELECT name, delivered_epoch > 0, delivered_at IS NOT NULL, error IS NULL"
                      + " FROM rw_catalog.rw_sinks"))
          .containsExactly("changes|t|t|t", "totals|t|t|t");
      // the dashboard's jobs show the same delivered epoch, which the sink actors report to meta
      // with their barriers (meta itself never talks to Kafka)
      KafkaIts.awaitDashboardDeliveries(st, () -> KafkaIts.httpGet(metaHttpPort, "/api/jobs"));
      // and the page draws them: each sink's row names its delivered epoch
      String browser = dev.tideway.it.cluster.DashboardIT.chromium();
      if (browser != null) {
        String jobs =
            dev.tideway.it.cluster.DashboardIT.section(
                dev.tideway.it.cluster.DashboardIT.render(browser, metaHttpPort), "jobs");
        for (String row : rows(st, "SELECT delivered_epoch FROM rw_catalog.rw_sinks")) {
          assertThat(jobs).contains("epoch " + row + " · ");
        }
      }
      // and the compute node's metrics count each sink's deliveries and say when its last was
      String metrics = KafkaIts.httpGet(metricsPort, "/metrics");
      assertThat(metrics)
          .containsPattern("tideway_sink_delivered_records_total\\{sink_id=\"\\d+\"} [1-9]")
          .containsPattern(
              "tideway_sink_delivered_epoch_timestamp_seconds\\{sink_id=\"\\d+\"} 1\\.7");
      assertThatThrownBy(() -> st.execute("SELECT * FROM changes"))
          .hasMessageContaining("does not exist");
      assertThatThrownBy(
              () ->
                  st.execute(
                      "CREATE SINK bad FROM t"
                          + with.formatted("changes")
                          + " FORMAT AVRO ENCODE JSON"))
          .hasMessageContaining("FORMAT AVRO");
      assertThatThrownBy(
              () ->
                  st.execute(
                      "CREATE SINK bad FROM t"
                          + with.formatted("nope")
                          + " FORMAT PLAIN ENCODE JSON"))
          .hasMessageContaining("topic \"nope\" does not exist");
      st.execute("DROP SINK totals");
      st.execute("DROP SINK changes");
      st.execute("DROP TABLE t");
    }
  }

  /** The values of every record of {@code topic}, as a read_committed consumer sees them. */
  static List<String> values(EmbeddedKafka kafka, String topic) {
    return readAll(kafka, topic).stream().map(ConsumerRecord::value).toList();
  }

  private static List<ConsumerRecord<String, String>> readAll(EmbeddedKafka kafka, String topic) {
    Properties props = new Properties();
    props.put("bootstrap.servers", kafka.bootstrapServers());
    props.put("isolation.level", "read_committed");
    props.put("key.deserializer", StringDeserializer.class.getName());
    props.put("value.deserializer", StringDeserializer.class.getName());
    List<ConsumerRecord<String, String>> out = new ArrayList<>();
    try (KafkaConsumer<String, String> c = new KafkaConsumer<>(props)) {
      List<TopicPartition> tps = new ArrayList<>();
      c.partitionsFor(topic).forEach(i -> tps.add(new TopicPartition(topic, i.partition())));
      c.assign(tps);
      c.seekToBeginning(tps);
      Map<TopicPartition, Long> end = c.endOffsets(tps);
      long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
      while (System.nanoTime() < deadline
          && tps.stream().anyMatch(tp -> c.position(tp) < end.get(tp))) {
        c.poll(Duration.ofMillis(200)).forEach(out::add);
      }
    }
    return out;
  }

  private static List<String> rows(Statement st, String sql) throws SQLException {
    return dev.tideway.cli.local.Probes.sortedRows(st, sql, String::valueOf);
  }

  private static int free() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
