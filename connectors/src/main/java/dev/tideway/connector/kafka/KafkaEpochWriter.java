package dev.tideway.connector.kafka;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;

/**
 * Delivers a sink's records to Kafka epoch by epoch, exactly once. Each committed epoch goes out in
 * one transaction that also commits, for the consumer group named by the sink, an offset whose
 * metadata is the epoch; so Kafka itself records the last epoch it holds, atomically with that
 * epoch's records. After a crash, {@link #open} aborts whatever transaction was left open (a
 * half-sent epoch) and answers the last epoch delivered; the caller sends every later epoch it
 * still holds again. With {@code exactlyOnce} false, records are sent as they come and flushed per
 * epoch (at least once: a recovery may send an epoch again).
 *
 * <p>Confined to the sink actor's thread.
 */
public final class KafkaEpochWriter implements AutoCloseable {
  private static final String EPOCH_PREFIX = "tideway-epoch=";

  private final KafkaSinkConfig config;
  private final String id;
  private final KafkaProducer<byte[], byte[]> producer;

  /**
   * @param id the sink's stable name in Kafka: its transactional id and consumer group
   */
  public KafkaEpochWriter(KafkaSinkConfig config, String id) {
    this.config = config;
    this.id = id;
    Properties p = config.producerConfig(id, config.exactlyOnce() ? id : null);
    this.producer = new KafkaProducer<>(p);
  }

  /**
   * Starts the writer: fences any earlier producer of this sink (aborting its open transaction) and
   * returns the last epoch Kafka holds (0 when none), for exactly-once delivery; 0 otherwise.
   */
  public long open() {
    if (!config.exactlyOnce()) {
      return 0;
    }
    producer.initTransactions();
    return deliveredEpoch(config, id, Duration.ofSeconds(30));
  }

  /** The stable name in Kafka of the sink whose log store is table {@code logStoreTableId}. */
  public static String sinkId(int logStoreTableId) {
    return "tideway-sink-" + logStoreTableId;
  }

  /**
   * The last epoch an exactly-once sink ({@code id}) delivered, as Kafka holds it (0 when none);
   * fails with a {@link KafkaException} when Kafka does not answer within {@code timeout}.
   */
  public static long deliveredEpoch(KafkaSinkConfig config, String id, Duration timeout) {
    Properties p = KafkaTopics.adminConfig(config.producerProperties(), config.bootstrapServers());
    p.put(AdminClientConfig.CLIENT_ID_CONFIG, id + "-admin");
    try (Admin admin = Admin.create(p)) {
      Map<TopicPartition, OffsetAndMetadata> offsets =
          admin
              .listConsumerGroupOffsets(id)
              .partitionsToOffsetAndMetadata()
              .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      OffsetAndMetadata o = offsets.get(marker(config));
      if (o == null || o.metadata() == null || !o.metadata().startsWith(EPOCH_PREFIX)) {
        return 0;
      }
      return Long.parseLong(o.metadata().substring(EPOCH_PREFIX.length()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KafkaException("interrupted while reading the sink's delivered epoch", e);
    } catch (ExecutionException | TimeoutException e) {
      throw new KafkaException("cannot read the sink's delivered epoch from Kafka: " + e, e);
    }
  }

  /** The partition whose group offset carries the delivered epoch. */
  private static TopicPartition marker(KafkaSinkConfig config) {
    return new TopicPartition(config.topic(), 0);
  }

  /**
   * Sends {@code records} (key, value; a null value is a tombstone) as epoch {@code epoch}: in one
   * transaction ending with the epoch marker (exactly once), or sent and flushed (at least once).
   * Returns once Kafka acknowledged them.
   */
  public void deliver(long epoch, List<byte[][]> records) {
    if (!config.exactlyOnce()) {
      for (byte[][] r : records) {
        producer.send(new ProducerRecord<>(config.topic(), r[0], r[1]));
      }
      producer.flush();
      return;
    }
    producer.beginTransaction();
    try {
      for (byte[][] r : records) {
        producer.send(new ProducerRecord<>(config.topic(), r[0], r[1]));
      }
      producer.sendOffsetsToTransaction(
          Map.of(marker(config), new OffsetAndMetadata(0, EPOCH_PREFIX + epoch)),
          new ConsumerGroupMetadata(id));
      producer.commitTransaction();
    } catch (KafkaException e) {
      try {
        producer.abortTransaction();
      } catch (KafkaException ignored) {
        // fenced or broken: the next open() aborts it
      }
      throw e;
    }
  }

  @Override
  public void close() {
    producer.close(Duration.ofSeconds(5));
  }
}
