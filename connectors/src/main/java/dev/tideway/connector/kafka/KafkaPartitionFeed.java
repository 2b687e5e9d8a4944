package dev.tideway.connector.kafka;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;

/**
 * One source actor's window on a topic: a consumer without a group (partitions are assigned by
 * Tideway, offsets kept in Tideway's state), read partition by partition from the offsets the
 * source asks for. A poll fetches for every assigned partition at once; what it brings is buffered
 * per partition until asked for, and the consumer polls again only when nothing is buffered, so a
 * busy partition never waits behind an idle one and memory stays within one poll's records.
 *
 * <p>Records are read {@code read_committed} by default, so aborted transactions' records (a sink's
 * epoch that never committed) are never seen. Confined to the actor's thread.
 */
public final class KafkaPartitionFeed implements AutoCloseable {
  private final KafkaSourceConfig config;
  private final KafkaConsumer<byte[], byte[]> consumer;
  private final Map<Integer, ArrayDeque<ConsumerRecord<byte[], byte[]>>> buffers = new HashMap<>();

  /** Per assigned partition, the offset after the last record handed out (or sought). */
  private final Map<Integer, Long> next = new HashMap<>();

  private final Set<Integer> assigned = new TreeSet<>();

  /**
   * Every partition the topic was seen with: partitions are never removed from a Kafka topic, but a
   * metadata answer right after partitions were added can be stale (seen: three partitions, then
   * one again), and a source must not forget a partition it has read.
   */
  private final Set<Integer> seen = new TreeSet<>();

  private int buffered;

  public KafkaPartitionFeed(KafkaSourceConfig config, String clientId) {
    this.config = config;
    this.consumer = new KafkaConsumer<>(config.consumerConfig(clientId));
  }

  /**
   * The topic's partition numbers, ascending, never fewer than an earlier call returned; fails when
   * the topic does not exist.
   */
  public List<Integer> partitions() {
    List<PartitionInfo> infos = consumer.partitionsFor(config.topic(), Duration.ofSeconds(10));
    if (infos == null || infos.isEmpty()) {
      throw new KafkaException("topic \"" + config.topic() + "\" does not exist");
    }
    for (PartitionInfo i : infos) {
      seen.add(i.partition());
    }
    return new ArrayList<>(seen);
  }

  /** Where {@code partition} starts when no offset was committed, by the startup mode. */
  public long startOffset(int partition) {
    TopicPartition tp = new TopicPartition(config.topic(), partition);
    return switch (config.startup()) {
      case EARLIEST ->
          consumer.beginningOffsets(List.of(tp), Duration.ofSeconds(10)).getOrDefault(tp, 0L);
      case LATEST -> consumer.endOffsets(List.of(tp), Duration.ofSeconds(10)).getOrDefault(tp, 0L);
      case TIMESTAMP -> {
        OffsetAndTimestamp at =
            consumer
                .offsetsForTimes(
                    Map.of(tp, config.startupTimestampMillis()), Duration.ofSeconds(10))
                .get(tp);
        yield at != null
            ? at.offset()
            : consumer.endOffsets(List.of(tp), Duration.ofSeconds(10)).getOrDefault(tp, 0L);
      }
    };
  }

  /** Where each of {@code partitions} starts by the startup mode, asked in one request per kind. */
  public Map<Integer, Long> startOffsets(Collection<Integer> partitions) {
    List<TopicPartition> tps = new ArrayList<>();
    for (int p : partitions) {
      tps.add(new TopicPartition(config.topic(), p));
    }
    Map<TopicPartition, Long> at =
        switch (config.startup()) {
          case EARLIEST -> consumer.beginningOffsets(tps, Duration.ofSeconds(10));
          case LATEST -> consumer.endOffsets(tps, Duration.ofSeconds(10));
          case TIMESTAMP -> {
            Map<TopicPartition, Long> query = new HashMap<>();
            tps.forEach(tp -> query.put(tp, config.startupTimestampMillis()));
            Map<TopicPartition, Long> ends = consumer.endOffsets(tps, Duration.ofSeconds(10));
            Map<TopicPartition, Long> out = new HashMap<>(ends);
            consumer
                .offsetsForTimes(query, Duration.ofSeconds(10))
                .forEach(
                    (tp, o) -> {
                      if (o != null) {
                        out.put(tp, o.offset());
                      }
                    });
            yield out;
          }
        };
    Map<Integer, Long> out = new HashMap<>();
    at.forEach((tp, o) -> out.put(tp.partition(), o));
    return out;
  }

  /** The oldest offset {@code partition} still holds. */
  public long startOffsetEarliest(int partition) {
    TopicPartition tp = new TopicPartition(config.topic(), partition);
    return consumer.beginningOffsets(List.of(tp), Duration.ofSeconds(10)).getOrDefault(tp, 0L);
  }

  /** The end offsets (the next offset to be written) of {@code partitions}. */
  public Map<Integer, Long> endOffsets(Collection<Integer> partitions) {
    List<TopicPartition> tps = new ArrayList<>();
    for (int p : partitions) {
      tps.add(new TopicPartition(config.topic(), p));
    }
    Map<Integer, Long> out = new HashMap<>();
    consumer.endOffsets(tps, Duration.ofSeconds(10)).forEach((tp, o) -> out.put(tp.partition(), o));
    return out;
  }

  /**
   * Up to {@code max} records of {@code partition} at or after {@code offset}, in offset order;
   * empty when none arrived within {@code pollMillis} (a poll that waits only when nothing at all
   * is buffered). Asking from another offset than where the last answer ended seeks there.
   */
  public List<ConsumerRecord<byte[], byte[]>> take(
      int partition, long offset, int max, long pollMillis) {
    if (assigned.add(partition)) {
      consumer.assign(topicPartitions());
      seek(partition, offset);
    } else if (next.get(partition) != offset) {
      seek(partition, offset);
    }
    ArrayDeque<ConsumerRecord<byte[], byte[]>> buf = buffers.get(partition);
    if (buf == null || buf.isEmpty()) {
      if (buffered > 0) {
        return List.of(); // others have records waiting: read those first
      }
      poll(pollMillis);
      buf = buffers.get(partition);
      if (buf == null || buf.isEmpty()) {
        return List.of();
      }
    }
    List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>(Math.min(max, buf.size()));
    while (out.size() < max && !buf.isEmpty()) {
      out.add(buf.pollFirst());
    }
    buffered -= out.size();
    next.put(partition, out.get(out.size() - 1).offset() + 1);
    return out;
  }

  private void seek(int partition, long offset) {
    ArrayDeque<ConsumerRecord<byte[], byte[]>> old = buffers.remove(partition);
    if (old != null) {
      buffered -= old.size();
    }
    consumer.seek(new TopicPartition(config.topic(), partition), offset);
    next.put(partition, offset);
  }

  private void poll(long pollMillis) {
    ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(pollMillis));
    for (TopicPartition tp : records.partitions()) {
      List<ConsumerRecord<byte[], byte[]>> rs = records.records(tp);
      if (rs.isEmpty() || !assigned.contains(tp.partition())) {
        continue;
      }
      buffers.computeIfAbsent(tp.partition(), p -> new ArrayDeque<>()).addAll(rs);
      buffered += rs.size();
    }
  }

  private List<TopicPartition> topicPartitions() {
    List<TopicPartition> out = new ArrayList<>();
    for (int p : assigned) {
      out.add(new TopicPartition(config.topic(), p));
    }
    return out;
  }

  /**
   * Where the consumer stands in {@code partition} once everything fetched of it was handed out:
   * the offset after the last record or transaction marker read, which may pass the last record's
   * offset + 1. -1 while records of it are buffered, or before it was read.
   */
  public long drainedPosition(int partition) {
    ArrayDeque<ConsumerRecord<byte[], byte[]>> buf = buffers.get(partition);
    if (!assigned.contains(partition) || (buf != null && !buf.isEmpty())) {
      return -1;
    }
    return consumer.position(new TopicPartition(config.topic(), partition), Duration.ofSeconds(10));
  }

  /**
   * Stops reading {@code partition}: drops what is buffered of it and unassigns it, so the other
   * partitions' reads never wait behind records nobody takes. A later {@link #take} of it assigns
   * it again.
   */
  public void release(int partition) {
    if (!assigned.remove(partition)) {
      return;
    }
    ArrayDeque<ConsumerRecord<byte[], byte[]>> old = buffers.remove(partition);
    if (old != null) {
      buffered -= old.size();
    }
    next.remove(partition);
    consumer.assign(topicPartitions());
  }

  /** The source's settings. */
  public KafkaSourceConfig config() {
    return config;
  }

  @Override
  public void close() {
    consumer.close(Duration.ofSeconds(5));
  }
}
