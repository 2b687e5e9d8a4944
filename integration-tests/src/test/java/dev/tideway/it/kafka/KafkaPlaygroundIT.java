package dev.tideway.it.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tideway.cli.cluster.Playground;
import dev.tideway.connector.kafka.EmbeddedKafka;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kafka tables and sources on a playground with a broker in the test JVM: an upsert table keeps the
 * latest value per key and forgets deleted keys, CSV and the INCLUDE columns, the startup modes,
 * and the errors a user meets first.
 */
class KafkaPlaygroundIT {
  private static EmbeddedKafka kafka;
  @TempDir Path dir;

  @BeforeAll
  static void startKafka() {
    kafka = EmbeddedKafka.start();
  }

  @AfterAll
  static void stopKafka() {
    kafka.close();
  }

  private Playground start() throws Exception {
    return KafkaIts.start(dir);
  }

  private static Connection connect(Playground p) throws SQLException {
    return KafkaIts.connect(p);
  }

  private String with(String topic) {
    return " WITH (connector = 'kafka', topic = '"
        + topic
        + "', properties.bootstrap.server = '"
        + kafka.bootstrapServers()
        + "')";
  }

  @Test
  void anUpsertTableHoldsTheLatestValueOfEachKeyAndForgetsDeletedOnes() throws Exception {
    kafka.createTopic("users", 3);
    Map<Integer, String> expected = new TreeMap<>();
    try (Playground p = start();
        Connection c = connect(p);
        Statement st = c.createStatement();
        KafkaProducer<byte[], byte[]> producer = producer()) {
      st.execute(
          "CREATE TABLE users (id INT, name VARCHAR, score INT, PRIMARY KEY (id))"
              + with("users")
              + " FORMAT UPSERT ENCODE JSON");
      st.execute(
          "CREATE MATERIALIZED VIEW totals AS SELECT count(*) AS n, sum(score) AS s FROM users");
      java.util.Random rnd = new java.util.Random(7);
      for (int i = 0; i < 3_000; i++) {
        int id = rnd.nextInt(200);
        String key = "{\"id\": " + id + "}";
        if (rnd.nextInt(5) == 0) {
          send(producer, "users", key, null); // a tombstone deletes the key
          expected.remove(id);
        } else {
          int score = rnd.nextInt(1000);
          send(
              producer,
              "users",
              key,
              "{\"id\": " + id + ", \"name\": \"u" + i + "\", \"score\": " + score + "}");
          expected.put(id, "u" + i + "|" + score);
        }
      }
      // skipped: a key that does not parse, a value whose id is not the key's
      send(producer, "users", "{\"id\": 1", "{\"id\": 1, \"name\": \"bad key\"}");
      send(producer, "users", "{\"id\": 2}", "{\"id\": 3, \"name\": \"other key\"}");
      producer.flush();
      List<String> want = new ArrayList<>();
      long sum = 0;
      for (Map.Entry<Integer, String> e : expected.entrySet()) {
        want.add(e.getKey() + "|" + e.getValue());
        sum += Long.parseLong(e.getValue().substring(e.getValue().indexOf('|') + 1));
      }
      awaitRows(st, "SELECT count(*) FROM users", List.of(Integer.toString(want.size())));
      awaitRows(st, "SELECT n, s FROM totals", List.of(want.size() + "|" + sum));
      assertThat(rows(st, "SELECT id, name, score FROM users"))
          .containsExactlyInAnyOrderElementsOf(want);
      assertThatThrownBy(() -> st.execute("INSERT INTO users VALUES (1000, 'x', 1)"))
          .isInstanceOf(SQLException.class)
          .hasMessageContaining("not a table that accepts DML");
      assertThatThrownBy(
              () ->
                  st.execute(
                      "CREATE TABLE nokey (id INT, v INT)"
                          + with("users")
                          + " FORMAT UPSERT ENCODE JSON"))
          .isInstanceOf(SQLException.class)
          .hasMessageContaining("FORMAT UPSERT needs a primary key");
    }
  }

  @Test
  void csvSourcesWithIncludedMetadataAndTheStartupModes() throws Exception {
    kafka.createTopic("lines", 1);
    try (Playground p = start();
        Connection c = connect(p);
        Statement st = c.createStatement();
        KafkaProducer<byte[], byte[]> producer = producer()) {
      send(producer, "lines", "k0", "1|one|2024-01-02 03:04:05");
      send(producer, "lines", "k1", "2|\"t|wo\"|");
      send(producer, "lines", "k2", "three|3|x"); // does not parse: skipped
      producer.flush();
      st.execute(
          "CREATE SOURCE lines (n INT, word VARCHAR, ts TIMESTAMP) INCLUDE key AS k INCLUDE offset"
              + " AS off INCLUDE timestamp"
              + with("lines")
              + " FORMAT PLAIN ENCODE CSV (delimiter = '|')");
      st.execute(
          "CREATE MATERIALIZED VIEW lv AS SELECT n, word, ts, CAST(k AS VARCHAR) AS key, off,"
              + " _rw_kafka_timestamp IS NOT NULL AS stamped FROM lines");
      String latest = with("lines").replace("')", "', scan.startup.mode = 'latest')");
      st.execute(
          "CREATE SOURCE lines_new (n INT, word VARCHAR, ts TIMESTAMP)"
              + latest
              + " FORMAT PLAIN ENCODE CSV (delimiter = '|')");
      st.execute("CREATE MATERIALIZED VIEW lnew AS SELECT n FROM lines_new");
      awaitRows(
          st,
          "SELECT * FROM lv",
          List.of("1|one|2024-01-02 03:04:05|\\x6b30|0|t", "2|t|wo|null|\\x6b31|1|t"));
      Thread.sleep(1_500); // lnew's source has started at the end: only what comes next is read
      send(producer, "lines", "k3", "4|four|");
      producer.flush();
      awaitRows(st, "SELECT * FROM lnew", List.of("4"));
      // lines and lines_new are two sources, each with its own consumer: lv sees the record when
      // its own source has read it, not necessarily at the checkpoint that showed it in lnew
      awaitRows(st, "SELECT count(*) FROM lv", List.of("3"));

      assertThatThrownBy(
              () ->
                  st.execute(
                      "CREATE SOURCE x (a INT)" + with("lines") + " FORMAT UPSERT ENCODE JSON"))
          .hasMessageContaining("FORMAT UPSERT needs a primary key");
      assertThatThrownBy(() -> st.execute("CREATE SOURCE x (a INT) INCLUDE header" + with("lines")))
          .hasMessageContaining("INCLUDE header");
      assertThatThrownBy(
              () ->
                  st.execute(
                      "CREATE SOURCE x (a INT)" + with("lines") + " FORMAT PLAIN ENCODE AVRO"))
          .hasMessageContaining("ENCODE AVRO");
      assertThatThrownBy(
              () ->
                  st.execute(
                      "CREATE SOURCE x (a INT) WITH (connector = 'kafka', topic = 't',"
                          + " properties.bootstrap.server = '127.0.0.1:1')"))
          .isInstanceOf(SQLException.class)
          .hasMessageContaining("cannot reach Kafka at 127.0.0.1:1")
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("08006"));
    }
  }

  @Test
  void aSourceRidesOutItsBrokerGoingDownAndComingBack() throws Exception {
    int port = free();
    Path log = dir.resolve("broker");
    EmbeddedKafka broker = EmbeddedKafka.start(log, port);
    try (Playground p = start();
        Connection c = connect(p);
        Statement st = c.createStatement()) {
      broker.createTopic("clicks", 2);
      String servers = broker.bootstrapServers();
      st.execute(
          "CREATE SOURCE clicks (id BIGINT) WITH (connector = 'kafka', topic = 'clicks',"
              + " properties.bootstrap.server = '"
              + servers
              + "') FORMAT PLAIN ENCODE JSON");
      st.execute(
          "CREATE MATERIALIZED VIEW cc AS SELECT count(*) AS n, count(DISTINCT id) AS d FROM clicks");
      sendIds(servers, 0, 2_000);
      awaitRows(st, "SELECT n, d FROM cc", List.of("2000|2000"));
      broker.close(); // the broker goes away: the view stays readable, the source waits
      Thread.sleep(3_000);
      assertThat(rows(st, "SELECT n, d FROM cc")).containsExactly("2000|2000");
      broker = EmbeddedKafka.start(log, port);
      sendIds(servers, 2_000, 2_000);
      awaitRows(st, "SELECT n, d FROM cc", List.of("4000|4000"));
    } finally {
      broker.close();
    }
  }

  private static void sendIds(String servers, int from, int count) throws Exception {
    Properties props = new Properties();
    props.put("bootstrap.servers", servers);
    props.put("key.serializer", ByteArraySerializer.class.getName());
    props.put("value.serializer", ByteArraySerializer.class.getName());
    try (KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(props)) {
      for (int i = from; i < from + count; i++) {
        p.send(
            new ProducerRecord<>(
                "clicks", ("{\"id\": " + i + "}").getBytes(StandardCharsets.UTF_8)));
      }
      p.flush();
    }
  }

  private static KafkaProducer<byte[], byte[]> producer() {
    Properties p = new Properties();
    p.put("bootstrap.servers", kafka.bootstrapServers());
    p.put("key.serializer", ByteArraySerializer.class.getName());
    p.put("value.serializer", ByteArraySerializer.class.getName());
    return new KafkaProducer<>(p);
  }

  private static void send(KafkaProducer<byte[], byte[]> p, String topic, String key, String value)
      throws Exception {
    p.send(
            new ProducerRecord<>(
                topic,
                key.getBytes(StandardCharsets.UTF_8),
                value == null ? null : value.getBytes(StandardCharsets.UTF_8)))
        .get();
  }

  private static int free() throws IOException {
    return KafkaIts.free();
  }

  private static void awaitRows(Statement st, String sql, List<String> want) throws Exception {
    KafkaIts.awaitRows(st, sql, want, 60);
  }

  private static List<String> rows(Statement st, String sql) throws SQLException {
    return KafkaIts.rows(st, sql);
  }
}
