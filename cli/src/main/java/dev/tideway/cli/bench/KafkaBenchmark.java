package dev.tideway.cli.bench;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.tideway.cli.cluster.Playground;
import dev.tideway.common.bench.Benchmark;
import dev.tideway.common.time.Clock;
import dev.tideway.connector.kafka.EmbeddedKafka;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * {@code tideway bench kafka}: ingest from Kafka as users ingest. An embedded broker in this
 * process holds a topic of JSON records {@code {"id", "k", "v", "s"}}; the figure is the rows per
 * second of a kafka source into a simple view ({@code count(*), sum(v)}) on a playground in this
 * process, from {@code CREATE MATERIALIZED VIEW} until the view counts every record, beside a raw
 * loop over the same topic in the same run (a {@code KafkaConsumer} and Jackson's streaming parser
 * extracting the same four fields and summing {@code v}: no rows, no state, no checkpoints); {@code
 * efficiency} is the source's rate over the raw one. Both run once as a warm-up first.
 */
public final class KafkaBenchmark implements Benchmark {
  private static final String TOPIC = "bench";
  private static final String WARM = "bench-warm-up";
  private static final String RAW_OUT = "bench-raw-out";
  private static final String SINK_OUT = "bench-sink-out";
  private static final JsonFactory JSON = new JsonFactory();
  private final Clock clock = Clock.system();
  private String sinkDelivery = "exactly_once";

  @Override
  public String name() {
    return "kafka";
  }

  @Override
  public String description() {
    return "a kafka source (JSON) into a view on a playground vs a raw KafkaConsumer + Jackson loop";
  }

  @Override
  public void run(Options options, PrintWriter out) {
    options.checkOnly("records", "partitions", "sink-delivery");
    sinkDelivery = options.values().getOrDefault("sink-delivery", "exactly_once");
    long records = options.getLong("records", 10_000_000);
    int partitions = (int) options.getLong("partitions", 4, 1);
    try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
      kafka.createTopic(TOPIC, partitions);
      kafka.createTopic(WARM, partitions);
      produce(kafka.bootstrapServers(), WARM, Math.min(records, 1_000_000));
      double produced = produce(kafka.bootstrapServers(), TOPIC, records);
      out.printf("produce_rows_per_s=%d%n", Math.round(produced));
      out.flush();
      raw(kafka.bootstrapServers(), partitions, Math.min(records, 1_000_000)); // warm-up
      double raw = raw(kafka.bootstrapServers(), partitions, records);
      out.printf("raw_rows_per_s=%d%n", Math.round(raw));
      out.flush();
      long sinkRecords = Math.min(records, 1_000_000);
      kafka.createTopic(RAW_OUT, 1);
      kafka.createTopic(SINK_OUT, 1);
      double rawCopy = rawCopy(kafka.bootstrapServers(), partitions, sinkRecords);
      out.printf("raw_copy_rows_per_s=%d%n", Math.round(rawCopy));
      out.flush();
      double[] tw = source(kafka.bootstrapServers(), records, sinkRecords);
      double source = tw[0];
      out.printf("rows_per_s=%d%n", Math.round(source));
      out.printf("sink_rows_per_s=%d%n", Math.round(tw[1]));
      out.printf(
          "summary: kafka source %d rows/s into a view, raw consumer + Jackson %d rows/s,"
              + " efficiency=%.2f (%d records, %d partitions); kafka source -> exactly-once kafka"
              + " sink %d rows/s, raw consume + parse + encode + produce %d rows/s,"
              + " sink_efficiency=%.2f (%d records)%n",
          Math.round(source),
          Math.round(raw),
          source / raw,
          records,
          partitions,
          Math.round(tw[1]),
          Math.round(rawCopy),
          tw[1] / rawCopy,
          sinkRecords);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (Exception e) {
      throw new IllegalStateException("kafka benchmark failed: " + e, e);
    }
  }

  private double produce(String servers, String topic, long records) throws Exception {
    Properties p = new Properties();
    p.put("bootstrap.servers", servers);
    p.put("key.serializer", ByteArraySerializer.class.getName());
    p.put("value.serializer", ByteArraySerializer.class.getName());
    p.put("linger.ms", "20");
    p.put("batch.size", "262144");
    p.put("acks", "1");
    long t0 = clock.nanoTime();
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
      for (long i = 0; i < records; i++) {
        String json =
            "{\"id\":"
                + i
                + ",\"k\":"
                + (i % 1000)
                + ",\"v\":"
                + (i * 3)
                + ",\"s\":\"row-"
                + i
                + "\"}";
        producer.send(new ProducerRecord<>(topic, json.getBytes(StandardCharsets.UTF_8)));
      }
      producer.flush();
    }
    return records / ((clock.nanoTime() - t0) / 1e9);
  }

  /** Records per second of a consumer reading the topic from the start, parsing each record. */
  private double raw(String servers, int partitions, long records) throws IOException {
    Properties p = new Properties();
    p.put("bootstrap.servers", servers);
    p.put("key.deserializer", ByteArrayDeserializer.class.getName());
    p.put("value.deserializer", ByteArrayDeserializer.class.getName());
    p.put("enable.auto.commit", "false");
    p.put("isolation.level", "read_committed");
    long t0 = clock.nanoTime();
    long n = 0;
    long sum = 0;
    try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p)) {
      List<TopicPartition> tps = new ArrayList<>();
      for (int i = 0; i < partitions; i++) {
        tps.add(new TopicPartition(TOPIC, i));
      }
      c.assign(tps);
      c.seekToBeginning(tps);
      while (n < records) {
        for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(100))) {
          sum += parse(r.value());
          if (++n == records) {
            break;
          }
        }
      }
    }
    if (sum < 0) {
      throw new IllegalStateException("impossible sum " + sum); // keeps the parse alive
    }
    return records / ((clock.nanoTime() - t0) / 1e9);
  }

  /**
   * Records per second of a loop copying the warm-up topic into another one as a sink would: read,
   * parse the four fields, write them back as JSON, produce (no transactions), flush.
   */
  private double rawCopy(String servers, int partitions, long records) throws IOException {
    Properties c = new Properties();
    c.put("bootstrap.servers", servers);
    c.put("key.deserializer", ByteArrayDeserializer.class.getName());
    c.put("value.deserializer", ByteArrayDeserializer.class.getName());
    c.put("enable.auto.commit", "false");
    Properties p = new Properties();
    p.put("bootstrap.servers", servers);
    p.put("key.serializer", ByteArraySerializer.class.getName());
    p.put("value.serializer", ByteArraySerializer.class.getName());
    p.put("linger.ms", "5");
    long t0 = clock.nanoTime();
    long n = 0;
    java.io.ByteArrayOutputStream buf = new java.io.ByteArrayOutputStream(128);
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(c);
        KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
      List<TopicPartition> tps = new ArrayList<>();
      for (int i = 0; i < partitions; i++) {
        tps.add(new TopicPartition(WARM, i));
      }
      consumer.assign(tps);
      consumer.seekToBeginning(tps);
      while (n < records) {
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(100))) {
          long[] ids = new long[3];
          String s = null;
          try (JsonParser jp = JSON.createParser(r.value())) {
            jp.nextToken();
            while (jp.nextToken() == JsonToken.FIELD_NAME) {
              String f = jp.currentName();
              jp.nextToken();
              switch (f) {
                case "id" -> ids[0] = jp.getLongValue();
                case "k" -> ids[1] = jp.getLongValue();
                case "v" -> ids[2] = jp.getLongValue();
                default -> s = jp.getText();
              }
            }
          }
          buf.reset();
          try (com.fasterxml.jackson.core.JsonGenerator g = JSON.createGenerator(buf)) {
            g.writeStartObject();
            g.writeNumberField("id", ids[0]);
            g.writeNumberField("k", ids[1]);
            g.writeNumberField("v", ids[2]);
            g.writeStringField("s", s);
            g.writeEndObject();
          }
          producer.send(new ProducerRecord<>(RAW_OUT, buf.toByteArray()));
          if (++n == records) {
            break;
          }
        }
      }
      producer.flush();
    }
    return records / ((clock.nanoTime() - t0) / 1e9);
  }

  /** Reads the four fields as the source does; returns {@code v}. */
  private static long parse(byte[] value) throws IOException {
    long v = 0;
    try (JsonParser jp = JSON.createParser(value)) {
      jp.nextToken();
      while (jp.nextToken() == JsonToken.FIELD_NAME) {
        String f = jp.currentName();
        jp.nextToken();
        switch (f) {
          case "id", "k" -> jp.getLongValue();
          case "v" -> v = jp.getLongValue();
          case "s" -> jp.getText();
          default -> jp.skipChildren();
        }
      }
    }
    return v;
  }

  /**
   * {rows per second of a view over a kafka source, from CREATE until it counts every record; rows
   * per second of an exactly-once kafka sink over the warm-up source, from CREATE until its topic
   * holds every record}.
   */
  private double[] source(String servers, long records, long sinkRecords) throws Exception {
    Path dir = Files.createTempDirectory("tideway-bench-kafka");
    Playground.Options o =
        new Playground.Options(dir, "127.0.0.1", free(), free(), free(), free(), 0, 1000);
    try (Playground pg = Playground.start(o, clock);
        Connection c =
            DriverManager.getConnection(
                "jdbc:postgresql://127.0.0.1:" + pg.pgPort() + "/dev?user=root");
        Statement st = c.createStatement()) {
      // each source is created just before its view: a kafka source is shared, a job of its own
      // that reads from its creation on, and the view reads what it read before through a
      // source backfill
      createSource(st, "warm_src", WARM, servers);
      timeView(st, "warm", "warm_src", Math.min(records, 1_000_000));
      st.execute("DROP MATERIALIZED VIEW warm");
      createSource(st, "src", TOPIC, servers);
      double view = timeView(st, "mv", "src", records);
      st.execute("DROP MATERIALIZED VIEW mv");
      long t0 = clock.nanoTime();
      st.execute(
          "CREATE SINK bench_out AS SELECT id, k, v, s FROM warm_src WITH (connector = 'kafka', topic = '"
              + SINK_OUT
              + "', properties.bootstrap.server = '"
              + servers
              + "', sink.delivery = '"
              + sinkDelivery
              + "') FORMAT PLAIN ENCODE JSON");
      awaitCommitted(servers, SINK_OUT, sinkRecords);
      double sink = sinkRecords / ((clock.nanoTime() - t0) / 1e9);
      return new double[] {view, sink};
    }
  }

  private static void createSource(Statement st, String name, String topic, String servers)
      throws SQLException {
    st.execute(
        "CREATE SOURCE "
            + name
            + " (id BIGINT, k INT, v BIGINT, s VARCHAR) WITH (connector = 'kafka', topic = '"
            + topic
            + "', properties.bootstrap.server = '"
            + servers
            + "') FORMAT PLAIN ENCODE JSON");
  }

  private double timeView(Statement st, String name, String source, long records) throws Exception {
    long t0 = clock.nanoTime();
    st.execute(
        "CREATE MATERIALIZED VIEW "
            + name
            + " AS SELECT count(*) AS n, sum(v) AS s FROM "
            + source);
    while (true) {
      try (ResultSet rs = st.executeQuery("SELECT n FROM " + name)) {
        if (rs.next() && rs.getLong(1) >= records) {
          return records / ((clock.nanoTime() - t0) / 1e9);
        }
      }
      clock.sleepMillis(50);
    }
  }

  /** Waits until a read_committed consumer of {@code topic} has read {@code records} records. */
  private void awaitCommitted(String servers, String topic, long records) throws Exception {
    Properties c = new Properties();
    c.put("bootstrap.servers", servers);
    c.put("key.deserializer", ByteArrayDeserializer.class.getName());
    c.put("value.deserializer", ByteArrayDeserializer.class.getName());
    c.put("isolation.level", "read_committed");
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(c)) {
      TopicPartition tp = new TopicPartition(topic, 0);
      consumer.assign(List.of(tp));
      consumer.seekToBeginning(List.of(tp));
      long n = 0;
      while (n < records) {
        n += consumer.poll(Duration.ofMillis(100)).count();
      }
    }
  }

  private static int free() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
