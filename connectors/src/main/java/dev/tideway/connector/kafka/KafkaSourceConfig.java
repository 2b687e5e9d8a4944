package dev.tideway.connector.kafka;

import dev.tideway.common.types.Schema;
import dev.tideway.connector.format.CsvRecordDecoder;
import dev.tideway.connector.format.JsonRecordDecoder;
import dev.tideway.connector.format.RecordDecoder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * A Kafka source's settings, read from its catalog properties: the user's {@code WITH} options and
 * the {@code FORMAT … ENCODE … (…)} and {@code INCLUDE …} clauses, which the frontend stores under
 * the reserved keys {@code format}, {@code encode}, {@code encode.<option>} and {@code
 * include.<what>} (the column's name). One parser for the frontend (which refuses bad options at
 * {@code CREATE}) and the compute node (which builds the consumer). Immutable.
 *
 * @param topic the topic read
 * @param bootstrapServers {@code properties.bootstrap.server}
 * @param startup where a partition without a committed offset starts
 * @param startupTimestampMillis for {@link StartupMode#TIMESTAMP}: the first record at or after it
 * @param format {@code PLAIN} (every record a new row) or {@code UPSERT} (the key is the row's
 *     primary key, a null value deletes it)
 * @param encode the payload encoding
 * @param delimiter the CSV field delimiter
 * @param includes the record metadata kept as extra trailing columns, in the order declared
 * @param consumerProperties every {@code properties.*} option without its prefix, passed to the
 *     consumer as given (security settings included)
 */
public record KafkaSourceConfig(
    String topic,
    String bootstrapServers,
    StartupMode startup,
    long startupTimestampMillis,
    Format format,
    Encode encode,
    char delimiter,
    Map<Include, String> includes,
    Map<String, String> consumerProperties) {

  /** Where a partition without a committed offset starts. */
  public enum StartupMode {
    EARLIEST,
    LATEST,
    TIMESTAMP
  }

  /** How records become changes. */
  public enum Format {
    PLAIN,
    UPSERT
  }

  /** How a payload becomes values. */
  public enum Encode {
    JSON,
    CSV
  }

  /** Record metadata a source may keep as a column ({@code INCLUDE key AS k}). */
  public enum Include {
    KEY("bytea"),
    PARTITION("character varying"),
    OFFSET("character varying"),
    TIMESTAMP("timestamp with time zone");

    private final String sqlType;

    Include(String sqlType) {
      this.sqlType = sqlType;
    }

    /** The column's type (RisingWave's). */
    public String sqlType() {
      return sqlType;
    }

    /** The default column name: {@code _rw_kafka_<what>}, as RisingWave names it. */
    public String defaultColumn() {
      return "_rw_kafka_" + name().toLowerCase(Locale.ROOT);
    }
  }

  /** The options a user may write in {@code WITH}, besides {@code properties.*}. */
  public static final List<String> OPTIONS =
      List.of(
          "connector",
          "topic",
          "properties.bootstrap.server",
          "scan.startup.mode",
          "scan.startup.timestamp.millis",
          "source.rows.per.second",
          "source.chunk.size");

  /** Consumer settings the source owns: a user's value would break exactly-once reading. */
  private static final List<String> OWNED =
      List.of(
          ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
          ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
          ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
          ConsumerConfig.GROUP_ID_CONFIG);

  /**
   * Reads and checks {@code props}; fails with a message a user can act on (naming the option and
   * the valid ones) for an unknown option, a missing topic or server, or a bad value.
   */
  public static KafkaSourceConfig parse(Map<String, String> props) {
    Map<String, String> consumer = new TreeMap<>();
    Map<Include, String> includes = new LinkedHashMap<>();
    String format = "plain";
    String encode = "json";
    char delimiter = ',';
    for (Map.Entry<String, String> e : props.entrySet()) {
      String key = e.getKey().toLowerCase(Locale.ROOT);
      String value = e.getValue();
      if (key.equals("properties.bootstrap.server")
          || key.equals("properties.bootstrap.servers")
          || key.startsWith("_")) { // Tideway's own plan properties (users cannot write them)
        continue;
      } else if (key.startsWith("properties.")) {
        String k = key.substring("properties.".length());
        if (OWNED.contains(k)) {
          throw new IllegalArgumentException(
              "option \"" + e.getKey() + "\" is set by the source itself and cannot be given");
        }
        consumer.put(k, value);
      } else if (key.equals("format")) {
        format = value.toLowerCase(Locale.ROOT);
      } else if (key.equals("encode")) {
        encode = value.toLowerCase(Locale.ROOT);
      } else if (key.startsWith("encode.")) {
        String opt = key.substring("encode.".length());
        if (opt.equals("delimiter")) {
          if (value.length() != 1) {
            throw new IllegalArgumentException(
                "CSV delimiter must be one character, got '" + value + "'");
          }
          delimiter = value.charAt(0);
        } else if (!(opt.equals("without_header") && value.equalsIgnoreCase("true"))) {
          throw new IllegalArgumentException(
              "unknown ENCODE option \""
                  + opt
                  + "\" (valid: delimiter, without_header = 'true': each record is one line)");
        }
      } else if (key.startsWith("include.")) {
        Include what = include(key.substring("include.".length()));
        includes.put(what, value);
      } else if (!OPTIONS.contains(key)) {
        throw new IllegalArgumentException(
            "unknown option \""
                + e.getKey()
                + "\" for a kafka source (valid options: "
                + String.join(", ", OPTIONS)
                + ", properties.<consumer setting>)");
      }
    }
    String topic = get(props, "topic");
    if (topic == null || topic.isBlank()) {
      throw new IllegalArgumentException("a kafka source needs option \"topic\"");
    }
    String servers = get(props, "properties.bootstrap.server");
    if (servers == null) {
      servers = get(props, "properties.bootstrap.servers");
    }
    if (servers == null || servers.isBlank()) {
      throw new IllegalArgumentException(
          "a kafka source needs option \"properties.bootstrap.server\" (host:port[,host:port...])");
    }
    String ts = get(props, "scan.startup.timestamp.millis");
    String modeText = get(props, "scan.startup.mode");
    StartupMode mode =
        modeText == null
            ? (ts == null ? StartupMode.EARLIEST : StartupMode.TIMESTAMP)
            : switch (modeText.toLowerCase(Locale.ROOT)) {
              case "earliest" -> StartupMode.EARLIEST;
              case "latest" -> StartupMode.LATEST;
              case "timestamp" -> StartupMode.TIMESTAMP;
              default ->
                  throw new IllegalArgumentException(
                      "scan.startup.mode must be 'earliest', 'latest' or 'timestamp', got '"
                          + modeText
                          + "'");
            };
    long millis = 0;
    if (mode == StartupMode.TIMESTAMP) {
      if (ts == null) {
        throw new IllegalArgumentException(
            "scan.startup.mode = 'timestamp' needs scan.startup.timestamp.millis");
      }
      try {
        millis = Long.parseLong(ts.strip());
      } catch (NumberFormatException nfe) {
        throw new IllegalArgumentException(
            "scan.startup.timestamp.millis must be milliseconds since the epoch, got '" + ts + "'");
      }
    }
    Format f =
        switch (format) {
          case "plain" -> Format.PLAIN;
          case "upsert" -> Format.UPSERT;
          default ->
              throw new IllegalArgumentException(
                  "FORMAT " + format.toUpperCase(Locale.ROOT) + " (use PLAIN or UPSERT)");
        };
    Encode enc =
        switch (encode) {
          case "json" -> Encode.JSON;
          case "csv" -> Encode.CSV;
          default ->
              throw new IllegalArgumentException(
                  "ENCODE " + encode.toUpperCase(Locale.ROOT) + " (use JSON or CSV)");
        };
    if (f == Format.UPSERT && enc != Encode.JSON) {
      throw new IllegalArgumentException("FORMAT UPSERT needs ENCODE JSON");
    }
    return new KafkaSourceConfig(
        topic.strip(), servers.strip(), mode, millis, f, enc, delimiter, includes, consumer);
  }

  private static Include include(String what) {
    for (Include i : Include.values()) {
      if (i.name().equalsIgnoreCase(what)) {
        return i;
      }
    }
    throw new IllegalArgumentException(
        "INCLUDE " + what + " (a kafka source can include key, partition, offset, timestamp)");
  }

  private static String get(Map<String, String> props, String key) {
    for (Map.Entry<String, String> e : props.entrySet()) {
      if (e.getKey().equalsIgnoreCase(key)) {
        return e.getValue();
      }
    }
    return null;
  }

  /** The decoder of this source's payload into {@code columns} (the payload columns only). */
  public RecordDecoder decoder(Schema columns) {
    return encode == Encode.CSV
        ? new CsvRecordDecoder(columns, delimiter)
        : new JsonRecordDecoder(columns);
  }

  /** The consumer's settings: the user's, then those the source owns. */
  public Properties consumerConfig(String clientId) {
    Properties p = new Properties();
    p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    p.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "10000");
    p.put(ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000");
    // the consumer answers partitionsFor from its metadata cache: refresh it often enough that a
    // partition added to the topic is found within seconds
    p.put(ConsumerConfig.METADATA_MAX_AGE_CONFIG, "5000");
    p.putAll(consumerProperties);
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    p.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
    p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    // a committed offset removed by retention restarts at the oldest record left
    p.putIfAbsent(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    return p;
  }

  /** The names of the include columns, in the order they follow the payload columns. */
  public List<String> includeColumns() {
    return new ArrayList<>(includes.values());
  }
}
