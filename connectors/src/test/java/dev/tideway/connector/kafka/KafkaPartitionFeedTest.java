package dev.tideway.connector.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The feed against a real broker in this JVM. */
class KafkaPartitionFeedTest {
  private static EmbeddedKafka kafka;

  @BeforeAll
  static void start() {
    kafka = EmbeddedKafka.start();
  }

  @AfterAll
  static void stop() {
    kafka.close();
  }

  private static KafkaSourceConfig config(String topic, String mode) {
    return KafkaSourceConfig.parse(
        Map.of(
            "connector",
            "kafka",
            "topic",
            topic,
            "properties.bootstrap.server",
            kafka.bootstrapServers(),
            "scan.startup.mode",
            mode));
  }

  static void produce(String topic, int partition, int from, int count) {
    Properties p = new Properties();
    p.put("bootstrap.servers", kafka.bootstrapServers());
    p.put("key.serializer", ByteArraySerializer.class.getName());
    p.put("value.serializer", ByteArraySerializer.class.getName());
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
      for (int i = from; i < from + count; i++) {
        producer.send(
            new ProducerRecord<>(
                topic, partition, null, ("{\"id\":" + i + "}").getBytes(StandardCharsets.UTF_8)));
      }
    }
  }

  private static List<Long> readAll(KafkaPartitionFeed feed, int partition, long from, int count) {
    List<Long> offsets = new ArrayList<>();
    long next = from;
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (offsets.size() < count && System.nanoTime() < deadline) {
      for (ConsumerRecord<byte[], byte[]> r : feed.take(partition, next, 100, 50)) {
        offsets.add(r.offset());
        next = r.offset() + 1;
      }
    }
    return offsets;
  }

  private static List<ConsumerRecord<byte[], byte[]>> takeSome(
      KafkaPartitionFeed feed, int partition, long from, int max) {
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (System.nanoTime() < deadline) {
      List<ConsumerRecord<byte[], byte[]>> got = feed.take(partition, from, max, 50);
      if (!got.isEmpty()) {
        return got;
      }
    }
    return List.of();
  }

  @Test
  void aReleasedPartitionsBufferedRecordsNeverHoldUpTheOthers() {
    kafka.createTopic("feed-release", 2);
    produce("feed-release", 0, 0, 5_000);
    produce("feed-release", 1, 0, 5_000);
    try (KafkaPartitionFeed feed =
        new KafkaPartitionFeed(config("feed-release", "earliest"), "t")) {
      assertThat(takeSome(feed, 0, 0, 10)).hasSize(10); // assigns 0 and buffers more of it
      // partition 0 is done being read while records of it are buffered: until it is released,
      // they hold up partition 1 (a reader serves buffered partitions first)
      assertThat(feed.take(1, 0, 10, 50)).isEmpty();
      feed.release(0);
      assertThat(feed.drainedPosition(0)).isEqualTo(-1);
      assertThat(readAll(feed, 1, 0, 5_000)).hasSize(5_000).endsWith(4_999L);
      assertThat(feed.drainedPosition(1)).isEqualTo(5_000);
      assertThat(readAll(feed, 0, 10, 4_990))
          .as("a released partition is read again on asking")
          .hasSize(4_990);
    }
  }

  @Test
  void readsEachPartitionFromTheOffsetAskedAndSeeksWhenAskedElsewhere() {
    kafka.createTopic("feed-a", 2);
    produce("feed-a", 0, 0, 300);
    produce("feed-a", 1, 1000, 50);
    try (KafkaPartitionFeed feed = new KafkaPartitionFeed(config("feed-a", "earliest"), "t")) {
      assertThat(feed.partitions()).containsExactly(0, 1);
      assertThat(feed.startOffset(0)).isZero();
      assertThat(readAll(feed, 0, 0, 300)).hasSize(300).startsWith(0L, 1L).endsWith(299L);
      assertThat(readAll(feed, 1, 0, 50)).hasSize(50);
      // a recovery asks again from a committed offset: the same records come back
      assertThat(readAll(feed, 0, 120, 180)).first().isEqualTo(120L);
      assertThat(feed.endOffsets(List.of(0, 1))).containsEntry(0, 300L).containsEntry(1, 50L);
    }
    try (KafkaPartitionFeed latest = new KafkaPartitionFeed(config("feed-a", "latest"), "t")) {
      assertThat(latest.startOffset(0)).isEqualTo(300);
    }
  }

  @Test
  void seesPartitionsAddedToTheTopicWithinSeconds() throws Exception {
    kafka.createTopic("feed-b", 1);
    try (KafkaPartitionFeed feed = new KafkaPartitionFeed(config("feed-b", "earliest"), "t")) {
      assertThat(feed.partitions()).containsExactly(0);
      feed.take(0, 0, 10, 10);
      kafka.addPartitions("feed-b", 3);
      long deadline = System.nanoTime() + 20_000_000_000L;
      while (feed.partitions().size() < 3 && System.nanoTime() < deadline) {
        feed.take(0, 0, 10, 100);
        Thread.sleep(200);
      }
      assertThat(feed.partitions()).containsExactly(0, 1, 2);
    }
  }
}
