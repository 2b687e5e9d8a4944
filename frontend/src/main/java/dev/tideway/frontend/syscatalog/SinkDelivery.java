package dev.tideway.frontend.syscatalog;

import dev.tideway.barrier.epoch.Epoch;
import dev.tideway.connector.kafka.KafkaEpochWriter;
import dev.tideway.connector.kafka.KafkaSinkConfig;
import dev.tideway.frontend.meta.Relation;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.apache.kafka.common.KafkaException;

/**
 * How far a sink's delivery is, as Kafka itself holds it: an exactly-once sink commits, with each
 * epoch's records, the epoch in its consumer group's offset metadata, so the epoch read back is
 * exactly what a {@code read_committed} consumer can see. An at-least-once sink keeps no such
 * record: its delivery columns are NULL.
 */
final class SinkDelivery {
  /** How long {@code rw_sinks} waits for Kafka per sink. */
  static final Duration TIMEOUT = Duration.ofSeconds(2);

  private SinkDelivery() {}

  /**
   * {@code delivered_epoch, delivered_at, error} of sink {@code r}: the newest epoch whose changes
   * Kafka holds (an epoch without changes sends nothing, so an idle sink's stays where its last
   * change was) and its time; the error is Kafka's when it does not answer (NULL otherwise).
   */
  static Object[] of(Relation r) {
    Map<String, String> p = r.properties();
    if (!"kafka".equalsIgnoreCase(p.get("connector"))
        || "at_least_once".equalsIgnoreCase(p.getOrDefault("sink.delivery", "exactly_once"))) {
      return new Object[] {null, null, null};
    }
    try {
      KafkaSinkConfig config = KafkaSinkConfig.parse(p);
      long e = KafkaEpochWriter.deliveredEpoch(config, KafkaEpochWriter.sinkId(r.id()), TIMEOUT);
      if (e <= 0) {
        return new Object[] {null, null, null};
      }
      return new Object[] {e, Instant.ofEpochMilli(Epoch.unixMillis(e)), null};
    } catch (KafkaException | IllegalArgumentException ex) {
      return new Object[] {null, null, ex.getMessage()};
    }
  }
}
