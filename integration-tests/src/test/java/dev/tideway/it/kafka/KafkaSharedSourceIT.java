package dev.tideway.it.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.barrier.local.LocalBarrierManager;
import dev.tideway.cli.cluster.Playground;
import dev.tideway.common.fault.FailPoints;
import dev.tideway.connector.kafka.EmbeddedKafka;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A kafka source is shared: one consumer feeds every view over it, and a view created later first
 * backfills the topic's history, then joins the live rows. Checked against a ledger of every record
 * produced: no record lost or doubled across the hand-off, while records keep arriving and while
 * the cluster recovers in the middle of the backfill; and the backfill's progress counts the
 * offsets it read against the offsets the partitions held when it began.
 */
class KafkaSharedSourceIT {
  private static final Pattern SOURCE_PROGRESS =
      Pattern.compile("(\\d+\\.\\d\\d)% \\((\\d+)/(\\d+) offsets\\)");

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

  @AfterEach
  void resetFailPoints() {
    FailPoints.reset();
  }

  /** One observation of the backfill's row in rw_ddl_progress. */
  record Seen(String progress, long consumed, long total, boolean exact, String phase) {}

  @Test
  void aLaterViewBackfillsTheHistoryThenFollowsTheSharedConsumerExactlyOnce() throws Exception {
    kafka.createTopic("events", 3);
    AtomicLong produced = new AtomicLong();
    long before = 150_000;
    long more = 150_000;
    long live = 60_000;
    try (Playground p = start();
        Connection c = KafkaIts.connect(p);
        Statement st = c.createStatement();
        KafkaProducer<byte[], byte[]> producer = producer()) {
      produce(producer, "events", 3, produced, before);
      st.execute(
          "CREATE SOURCE events (id BIGINT, v INT) WITH (connector = 'kafka', topic = 'events',"
              + " properties.bootstrap.server = '"
              + kafka.bootstrapServers()
              + "') FORMAT PLAIN ENCODE JSON");
      st.execute(
          "CREATE MATERIALIZED VIEW first_view AS"
              + " SELECT count(*) AS n, count(DISTINCT id) AS d, sum(v) AS s FROM events");
      produce(producer, "events", 3, produced, more);
      awaitRows(st, "SELECT n, d FROM first_view", List.of(produced.get() + "|" + produced.get()));

      // the view created now reads the 300k records of history itself, at most 40k/s per actor
      st.execute("SET backfill_rate_limit = 40000");
      st.execute("SET background_ddl = true");
      st.execute(
          "CREATE MATERIALIZED VIEW second_view AS"
              + " SELECT count(*) AS n, count(DISTINCT id) AS d, sum(v) AS s FROM events");
      List<Seen> seen = new ArrayList<>();
      Seen first = awaitProgress(st, seen);
      assertThat(first.total())
          .as("offsets to backfill when it began: every record produced so far")
          .isEqualTo(before + more);
      assertThat(first.exact()).as("a topic without transactions counts rows exactly").isTrue();

      // records keep arriving during the backfill, and the cluster recovers twice in its middle
      Thread writer =
          new Thread(
              () -> {
                try (KafkaProducer<byte[], byte[]> w = producer()) {
                  for (int i = 0; i < live / 1000; i++) {
                    produce(w, "events", 3, produced, 1000);
                    Thread.sleep(20);
                  }
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              });
      writer.start();
      long deadline = System.nanoTime() + 180_000_000_000L;
      for (int recovery = 0; recovery < 2; recovery++) {
        long at = first.total() * (recovery + 1) / 4;
        while (poll(st, seen) != null && seen.get(seen.size() - 1).consumed() < at) {
          assertThat(System.nanoTime()).as("backfill stuck: %s", tail(seen)).isLessThan(deadline);
          Thread.sleep(50);
        }
        FailPoints.enable(LocalBarrierManager.FP_BEFORE_SYNC, new FailPoints.FailOnHit(1));
        while (FailPoints.hits(LocalBarrierManager.FP_BEFORE_SYNC) == 0) {
          Thread.sleep(20);
        }
        FailPoints.reset();
      }
      while (poll(st, seen) != null) {
        assertThat(System.nanoTime()).as("backfill stuck: %s", tail(seen)).isLessThan(deadline);
        Thread.sleep(50);
      }
      writer.join();
      long total = produced.get();
      long sum = sumOf(total);
      awaitRows(st, "SELECT n, d, s FROM first_view", List.of(total + "|" + total + "|" + sum));
      awaitRows(st, "SELECT n, d, s FROM second_view", List.of(total + "|" + total + "|" + sum));

      long last = 0;
      boolean midway = false;
      for (Seen s : seen) {
        Matcher m = SOURCE_PROGRESS.matcher(s.progress());
        assertThat(m.matches()).as("progress string %s", s.progress()).isTrue();
        assertThat(Long.parseLong(m.group(2))).isEqualTo(s.consumed());
        assertThat(Long.parseLong(m.group(3))).isEqualTo(s.total());
        assertThat(s.consumed()).as("offsets consumed never go back").isGreaterThanOrEqualTo(last);
        last = s.consumed();
        midway |= s.consumed() > 0 && s.consumed() < s.total();
      }
      assertThat(midway).as("progress seen between 0 and 100%%: %s", seen).isTrue();
      System.out.println("source backfill progress, as rw_ddl_progress showed it:");
      seen.stream().limit(12).forEach(s -> System.out.println("  " + s));
    }
  }

  @Test
  void aViewOverAnIdleTopicIsCreatedAtOnceAndReadsWhatArrivesLater() throws Exception {
    kafka.createTopic("quiet", 2);
    AtomicLong produced = new AtomicLong();
    try (Playground p = start();
        Connection c = KafkaIts.connect(p);
        Statement st = c.createStatement();
        KafkaProducer<byte[], byte[]> producer = producer()) {
      st.execute(
          "CREATE SOURCE quiet (id BIGINT, v INT) WITH (connector = 'kafka', topic = 'quiet',"
              + " properties.bootstrap.server = '"
              + kafka.bootstrapServers()
              + "') FORMAT PLAIN ENCODE JSON");
      st.execute("CREATE MATERIALIZED VIEW q1 AS SELECT count(*) AS n FROM quiet");
      produce(producer, "quiet", 2, produced, 5_000);
      awaitRows(st, "SELECT n FROM q1", List.of("5000"));
      st.execute("CREATE MATERIALIZED VIEW q2 AS SELECT count(*) AS n, sum(v) AS s FROM quiet");
      produce(producer, "quiet", 2, produced, 5_000);
      awaitRows(st, "SELECT n, s FROM q2", List.of("10000|" + sumOf(10_000)));
      // a partition added after both backfills began: the shared source reads it from its
      // beginning; a recovery afterwards must neither read it again nor lose what followed
      kafka.addPartitions("quiet", 3);
      produce(producer, "quiet", 3, produced, 6_000);
      awaitRows(st, "SELECT n, s FROM q2", List.of("16000|" + sumOf(16_000)));
      FailPoints.enable(LocalBarrierManager.FP_BEFORE_SYNC, new FailPoints.FailOnHit(1));
      while (FailPoints.hits(LocalBarrierManager.FP_BEFORE_SYNC) == 0) {
        Thread.sleep(20);
      }
      FailPoints.reset();
      produce(producer, "quiet", 3, produced, 3_000);
      awaitRows(st, "SELECT n FROM q1", List.of("19000"));
      awaitRows(st, "SELECT n, s FROM q2", List.of("19000|" + sumOf(19_000)));
      Thread.sleep(2_000); // nothing more may arrive
      assertThat(KafkaIts.rows(st, "SELECT n, s FROM q2"))
          .containsExactly("19000|" + sumOf(19_000));
      assertThat(KafkaIts.rows(st, "SELECT name FROM rw_catalog.rw_materialized_views"))
          .contains("q1", "q2");
    }
  }

  /**
   * Produces {@code n} records {@code {"id": i, "v": i % 100}} round robin over the partitions, ids
   * continuing the ledger {@code produced}.
   */
  private static void produce(
      KafkaProducer<byte[], byte[]> p, String topic, int partitions, AtomicLong produced, long n)
      throws Exception {
    for (long k = 0; k < n; k++) {
      long id = produced.get() + k;
      p.send(
          new ProducerRecord<>(
              topic,
              (int) (id % partitions),
              null,
              ("{\"id\": " + id + ", \"v\": " + id % 100 + "}").getBytes(StandardCharsets.UTF_8)));
    }
    p.flush();
    produced.addAndGet(n);
  }

  private static List<Seen> tail(List<Seen> seen) {
    return seen.subList(Math.max(0, seen.size() - 3), seen.size());
  }

  private static long sumOf(long n) {
    long sum = 0;
    for (long id = 0; id < n; id++) {
      sum += id % 100;
    }
    return sum;
  }

  private static Seen awaitProgress(Statement st, List<Seen> seen) throws Exception {
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (System.nanoTime() < deadline) {
      Seen s = poll(st, seen);
      if (s != null && s.total() > 0) {
        return s;
      }
      Thread.sleep(20);
    }
    throw new AssertionError("the backfill never reported a denominator: " + seen);
  }

  /** The backfill's progress row now (recorded in {@code seen}), or null once it is done. */
  private static Seen poll(Statement st, List<Seen> seen) throws SQLException {
    try (ResultSet rs =
        st.executeQuery(
            "SELECT progress, consumed_rows, upstream_rows, denominator_exact, phase"
                + " FROM rw_catalog.rw_ddl_progress WHERE ddl_statement LIKE '%second_view%'")) {
      if (!rs.next()) {
        return null;
      }
      Seen s =
          new Seen(
              rs.getString(1), rs.getLong(2), rs.getLong(3), rs.getBoolean(4), rs.getString(5));
      if (s.total() > 0) {
        seen.add(s);
      }
      return s;
    }
  }

  private Playground start() throws Exception {
    return KafkaIts.start(dir);
  }

  private static void awaitRows(Statement st, String sql, List<String> want) throws Exception {
    KafkaIts.awaitRows(st, sql, want, 120);
  }

  private static KafkaProducer<byte[], byte[]> producer() {
    return KafkaIts.producer(kafka.bootstrapServers());
  }
}
