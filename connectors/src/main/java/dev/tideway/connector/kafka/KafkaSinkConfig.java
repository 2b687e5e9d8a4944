package dev.tideway.connector.kafka;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * A Kafka sink's settings, read from its catalog properties (the {@code WITH} options and the
 * {@code format}/{@code encode} the frontend stores). Immutable.
 *
 * @param topic the topic written
 * @param bootstrapServers {@code properties.bootstrap.server}
 * @param format how changes become records
 * @param exactlyOnce {@code sink.delivery = 'exactly_once'} (the default): each epoch's records are
 *     written in one Kafka transaction once the epoch committed; else records go out as they come
 * @param primaryKey the columns named by {@code primary_key} (empty: the input's key)
 * @param producerProperties every {@code properties.*} option without its prefix
 */
public record KafkaSinkConfig(
    String topic,
    String bootstrapServers,
    Format format,
    boolean exactlyOnce,
    List<String> primaryKey,
    Map<String, String> producerProperties) {

  /** How changes become records. */
  public enum Format {
    /** Inserts (and the new side of updates) as JSON rows; deletes are not written. */
    PLAIN,
    /** Keyed by the row's key: the row as the value, a delete as a null value (a tombstone). */
    UPSERT,
    /** Debezium's envelope: {@code {"before", "after", "op": "c"|"u"|"d"}}, keyed. */
    DEBEZIUM
  }

  /** The options a user may write in {@code WITH}, besides {@code properties.*}. */
  public static final List<String> OPTIONS =
      List.of(
          "connector",
          "topic",
          "properties.bootstrap.server",
          "primary_key",
          "sink.delivery",
          "force_append_only");

  private static final List<String> OWNED =
      List.of(
          ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
          ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
          ProducerConfig.TRANSACTIONAL_ID_CONFIG,
          ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG);

  /** Reads and checks {@code props}; fails naming a bad or unknown option. */
  public static KafkaSinkConfig parse(Map<String, String> props) {
    Map<String, String> producer = new TreeMap<>();
    String topic = null;
    String servers = null;
    String format = "plain";
    String encode = "json";
    String delivery = "exactly_once";
    List<String> pk = List.of();
    for (Map.Entry<String, String> e : props.entrySet()) {
      String key = e.getKey().toLowerCase(Locale.ROOT);
      String v = e.getValue();
      switch (key) {
        case "connector", "force_append_only" -> {}
        case "topic" -> topic = v.strip();
        case "properties.bootstrap.server", "properties.bootstrap.servers" -> servers = v.strip();
        case "format" -> format = v.toLowerCase(Locale.ROOT);
        case "encode" -> encode = v.toLowerCase(Locale.ROOT);
        case "sink.delivery" -> delivery = v.toLowerCase(Locale.ROOT).strip();
        case "primary_key" -> pk = List.of(v.toLowerCase(Locale.ROOT).replace(" ", "").split(","));
        default -> {
          if (key.startsWith("_")) {
            continue; // Tideway's own plan properties
          }
          if (!key.startsWith("properties.")) {
            throw new IllegalArgumentException(
                "unknown option \""
                    + e.getKey()
                    + "\" for a kafka sink (valid options: "
                    + String.join(", ", OPTIONS)
                    + ", properties.<producer setting>)");
          }
          String k = key.substring("properties.".length());
          if (OWNED.contains(k)) {
            throw new IllegalArgumentException(
                "option \"" + e.getKey() + "\" is set by the sink itself and cannot be given");
          }
          producer.put(k, v);
        }
      }
    }
    if (topic == null || topic.isEmpty()) {
      throw new IllegalArgumentException("a kafka sink needs option \"topic\"");
    }
    if (servers == null || servers.isEmpty()) {
      throw new IllegalArgumentException(
          "a kafka sink needs option \"properties.bootstrap.server\" (host:port[,host:port...])");
    }
    if (!encode.equals("json")) {
      throw new IllegalArgumentException(
          "ENCODE " + encode.toUpperCase(Locale.ROOT) + " (use JSON)");
    }
    Format f =
        switch (format) {
          case "plain" -> Format.PLAIN;
          case "upsert" -> Format.UPSERT;
          case "debezium" -> Format.DEBEZIUM;
          default ->
              throw new IllegalArgumentException(
                  "FORMAT " + format.toUpperCase(Locale.ROOT) + " (use PLAIN, UPSERT or DEBEZIUM)");
        };
    boolean exactly =
        switch (delivery) {
          case "exactly_once" -> true;
          case "at_least_once" -> false;
          default ->
              throw new IllegalArgumentException(
                  "sink.delivery must be 'exactly_once' or 'at_least_once', got '"
                      + delivery
                      + "'");
        };
    return new KafkaSinkConfig(topic, servers, f, exactly, pk, producer);
  }

  /**
   * The producer's settings: the user's, then those the sink owns ({@code transactionalId} null for
   * at-least-once delivery).
   */
  public Properties producerConfig(String clientId, String transactionalId) {
    Properties p = new Properties();
    p.put(ProducerConfig.LINGER_MS_CONFIG, "5");
    p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "60000");
    p.putAll(producerProperties);
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    p.put(ProducerConfig.CLIENT_ID_CONFIG, clientId);
    p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    if (transactionalId != null) {
      p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
    }
    return p;
  }
}
