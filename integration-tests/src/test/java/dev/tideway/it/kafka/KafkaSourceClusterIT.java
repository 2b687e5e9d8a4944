package dev.tideway.it.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tideway.cli.local.LocalCluster;
import dev.tideway.cli.local.Probes;
import dev.tideway.common.time.Clock;
import dev.tideway.connector.kafka.EmbeddedKafka;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Kafka source on a real cluster of separate processes (ZooKeeper, two metas, two compute nodes,
 * a frontend) reading a real broker in the test JVM while a producer keeps writing: a compute node
 * is killed mid-stream (and restarted by the cluster), the topic grows a partition, malformed
 * records arrive. The ledger is every record the broker acknowledged; at the end the views must
 * hold each of them exactly once (count = distinct ids = acknowledged, sums per group equal), the
 * malformed ones skipped and counted in {@code tideway_source_parse_errors_total}.
 */
class KafkaSourceClusterIT {
  @TempDir Path dir;

  @Test
  void aKafkaSourceDeliversEveryAcknowledgedRecordExactlyOnceThroughAComputeKill()
      throws Exception {
    Path jar = Path.of("").toAbsolutePath().getParent().resolve("cli/target/tideway.jar");
    try (EmbeddedKafka kafka = EmbeddedKafka.start();
        LocalCluster c =
            LocalCluster.start(
                LocalCluster.Options.of(dir, jar).withHeap("512m"),
                Clock.system(),
                Duration.ofMinutes(3));
        Connection conn = c.connect(Duration.ofMinutes(1));
        Statement st = conn.createStatement()) {
      kafka.createTopic("events", 3);
      String with =
          " WITH (connector = 'kafka', topic = 'events', properties.bootstrap.server = '"
              + kafka.bootstrapServers()
              + "') FORMAT PLAIN ENCODE JSON";

      // what CREATE SOURCE can know at once, it says at once
      assertThatThrownBy(
              () ->
                  st.execute(
                      "CREATE SOURCE nope (id BIGINT) WITH (connector = 'kafka', topic ="
                          + " 'missing', properties.bootstrap.server = '"
                          + kafka.bootstrapServers()
                          + "')"))
          .isInstanceOf(SQLException.class)
          .hasMessageContaining("topic \"missing\" does not exist");
      assertThatThrownBy(
              () ->
                  st.execute(
                      "CREATE SOURCE nope (id BIGINT) WITH (connector = 'kafka', topic = 'events',"
                          + " properties.bootstrap.server = '"
                          + kafka.bootstrapServers()
                          + "', scan.startup.mod = 'earliest')"))
          .isInstanceOf(SQLException.class)
          .hasMessageContaining("unknown option \"scan.startup.mod\"");

      st.execute(
          "CREATE SOURCE events (id BIGINT, grp INT, amount BIGINT) INCLUDE partition AS part"
              + with);
      st.execute(
          "CREATE MATERIALIZED VIEW by_grp AS SELECT grp, count(*) AS n, count(DISTINCT id) AS d,"
              + " sum(amount) AS s FROM events GROUP BY grp");
      st.execute(
          "CREATE MATERIALIZED VIEW by_part AS SELECT part, count(*) AS n FROM events GROUP BY part");
      // and out again: every record copied to another topic, exactly once through the kill
      kafka.createTopic("copy", 2);
      st.execute(
          "CREATE SINK copied AS SELECT id, amount FROM events WITH (connector = 'kafka', topic ="
              + " 'copy', properties.bootstrap.server = '"
              + kafka.bootstrapServers()
              + "') FORMAT PLAIN ENCODE JSON");

      Map<Long, Long> ledger = new ConcurrentHashMap<>(); // acknowledged id -> amount
      AtomicInteger malformed = new AtomicInteger();
      AtomicBoolean stop = new AtomicBoolean();
      Thread producer =
          new Thread(() -> produce(kafka.bootstrapServers(), ledger, malformed, stop), "producer");
      producer.start();
      try {
        await(st, "SELECT coalesce(sum(n), 0) FROM by_grp", 2_000, Duration.ofMinutes(1));
        c.kill("compute-1"); // the cluster's supervisor starts it again
        Thread.sleep(2_000);
        kafka.addPartitions("events", 4);
        // the producer and the source each find the new partition within seconds
        await(st, "SELECT count(*) FROM by_part", 4, Duration.ofMinutes(2));
        await(st, "SELECT coalesce(sum(n), 0) FROM by_grp", 20_000, Duration.ofMinutes(3));
      } finally {
        stop.set(true);
        producer.join();
      }
      long total = ledger.size();
      long sum = ledger.values().stream().mapToLong(Long::longValue).sum();
      long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
      List<String> got = List.of();
      String want = total + "|" + total + "|" + sum;
      while (System.nanoTime() < deadline) {
        got = rows(st, "SELECT sum(n), sum(d), sum(s) FROM by_grp");
        if (got.equals(List.of(want))) {
          break;
        }
        Thread.sleep(500);
      }
      assertThat(got).as("every acknowledged record exactly once").containsExactly(want);
      List<String> perGroup = new ArrayList<>();
      for (int g = 0; g < 7; g++) {
        final int grp = g;
        long n = ledger.keySet().stream().filter(id -> id % 7 == grp).count();
        long s =
            ledger.entrySet().stream()
                .filter(e -> e.getKey() % 7 == grp)
                .mapToLong(Map.Entry::getValue)
                .sum();
        perGroup.add(grp + "|" + n + "|" + n + "|" + s);
      }
      assertThat(rows(st, "SELECT grp, n, d, s FROM by_grp ORDER BY grp"))
          .containsExactlyElementsOf(perGroup);
      // a view created now, on the separate-process cluster, backfills the topic's whole history
      // (four partitions, one added while running, malformed records among them) through its
      // source backfill and then follows the shared consumer: it holds the ledger exactly
      st.execute(
          "CREATE MATERIALIZED VIEW late AS SELECT count(*) AS n, count(DISTINCT id) AS d,"
              + " sum(amount) AS s FROM events");
      assertThat(rows(st, "SELECT n, d, s FROM late"))
          .as("a later view over the shared source")
          .containsExactly(want);
      Map<Long, Long> copied = new java.util.TreeMap<>();
      List<Long> twice = new ArrayList<>();
      java.util.regex.Pattern idAndAmount =
          java.util.regex.Pattern.compile("\\{\"id\":(\\d+),\"amount\":(\\d+)\\}");
      long until = System.nanoTime() + Duration.ofMinutes(1).toNanos();
      do {
        copied.clear();
        twice.clear();
        for (String v : KafkaSinkIT.values(kafka, "copy")) {
          java.util.regex.Matcher m = idAndAmount.matcher(v);
          assertThat(m.matches()).as(v).isTrue();
          if (copied.put(Long.valueOf(m.group(1)), Long.valueOf(m.group(2))) != null) {
            twice.add(Long.valueOf(m.group(1)));
          }
        }
      } while (copied.size() < total && System.nanoTime() < until);
      assertThat(twice).as("records the sink wrote twice").isEmpty();
      assertThat(copied)
          .as("the sink's topic holds every acknowledged record")
          .isEqualTo(new java.util.TreeMap<>(ledger));
      // the leader's dashboard shows the sink's delivered epoch, reported over the wire by its
      // actor on another process
      KafkaIts.awaitDashboardDeliveries(
          st,
          () -> {
            String r = c.get(c.leaderHttpPort(), "/api/jobs");
            return r.startsWith("200 ") ? r.substring(4) : "[]";
          });
      assertThat(rows(st, "SELECT part FROM by_part ORDER BY part"))
          .as("the partition added while running is read")
          .containsExactly("0", "1", "2", "3");
      long parseErrors = 0;
      for (String node : LocalCluster.COMPUTES) {
        for (String line : c.get(c.computeHttpPort(node), "/metrics").split("\n")) {
          if (line.startsWith("tideway_source_parse_errors_total{source=\"events\"}")) {
            parseErrors += (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
          }
        }
      }
      // skips are counted as they happen: a record read again after a recovery counts again
      assertThat(malformed.get()).isPositive();
      assertThat(parseErrors).isPositive();
    }
  }

  /**
   * Sends records until {@code stop}; every 97th is not JSON. Acknowledged ids go to the ledger.
   */
  private static void produce(
      String servers, Map<Long, Long> ledger, AtomicInteger malformed, AtomicBoolean stop) {
    Properties p = new Properties();
    p.put("bootstrap.servers", servers);
    p.put("key.serializer", ByteArraySerializer.class.getName());
    p.put("value.serializer", ByteArraySerializer.class.getName());
    p.put("linger.ms", "5");
    p.put("metadata.max.age.ms", "1000");
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
      for (long id = 0; !stop.get(); id++) {
        if (id % 97 == 96) {
          producer.send(
              new ProducerRecord<>("events", "{\"id\": broken".getBytes(StandardCharsets.UTF_8)),
              (md, e) -> {
                if (e == null) {
                  malformed.incrementAndGet();
                }
              });
          continue;
        }
        long key = id;
        long amount = id * 3 % 1000;
        String json = "{\"id\": " + id + ", \"grp\": " + (id % 7) + ", \"amount\": " + amount + "}";
        producer.send(
            new ProducerRecord<>(
                "events",
                Long.toString(id).getBytes(StandardCharsets.UTF_8),
                json.getBytes(StandardCharsets.UTF_8)),
            (md, e) -> {
              if (e == null) {
                ledger.put(key, amount);
              }
            });
        if (id % 200 == 0) {
          Thread.sleep(20); // about 10k records/s, so the kill lands mid-stream
        }
      }
      producer.flush();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Waits until {@code sql}'s one value is at least {@code atLeast}. */
  private static void await(Statement st, String sql, long atLeast, Duration within)
      throws Exception {
    long deadline = System.nanoTime() + within.toNanos();
    while (System.nanoTime() < deadline) {
      try {
        List<String> r = rows(st, sql);
        if (Long.parseLong(r.get(0)) >= atLeast) {
          return;
        }
      } catch (SQLException e) {
        // a recovery in progress: ask again
      }
      Thread.sleep(300);
    }
    throw new AssertionError(sql + " did not reach " + atLeast + " within " + within);
  }

  private static List<String> rows(Statement st, String sql) throws SQLException {
    return Probes.sortedRows(st, sql, String::valueOf);
  }
}
