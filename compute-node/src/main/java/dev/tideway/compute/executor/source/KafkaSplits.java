package dev.tideway.compute.executor.source;

import dev.tideway.common.check.Checks;
import dev.tideway.common.chunk.ColumnBuilder;
import dev.tideway.common.chunk.Op;
import dev.tideway.common.chunk.StreamChunkBuilder;
import dev.tideway.common.types.Field;
import dev.tideway.common.types.Schema;
import dev.tideway.compute.executor.ConnectorStats;
import dev.tideway.connector.format.JsonRecordDecoder;
import dev.tideway.connector.format.MalformedRecordException;
import dev.tideway.connector.format.RecordDecoder;
import dev.tideway.connector.kafka.KafkaPartitionFeed;
import dev.tideway.connector.kafka.KafkaSourceConfig;
import dev.tideway.connector.kafka.KafkaSourceConfig.Include;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.KafkaException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The partitions of a Kafka topic one source actor reads: shard {@code k} of {@code n} owns the
 * partitions {@code p} with {@code p % n == k}, found by asking the topic (at build and then every
 * few seconds, so partitions added while the job runs are read too, from their beginning). One
 * consumer serves all of them ({@link KafkaPartitionFeed}); each partition is a {@link SplitReader}
 * whose offset is the Kafka offset, so the offsets the source persists with each checkpoint resume
 * exactly after the last record a committed epoch holds.
 *
 * <p>A record whose payload does not decode is skipped (its offset still consumed), reported to
 * {@link ConnectorStats} with its partition, offset and reason. Confined to the actor's thread.
 */
public final class KafkaSplits implements SourceExecutor.SplitDiscovery {
  private static final Logger LOG = LoggerFactory.getLogger(KafkaSplits.class);

  /** How long a read of an empty partition waits for records when none is buffered. */
  static final long POLL_MILLIS = 5;

  /** The hidden row id column's name. */
  static final String ROW_ID = "_row_id";

  /** The partition of a row id ({@link #rowIds}). */
  public static int partitionOf(long rowId) {
    return (int) (rowId >>> RowIdSplitReader.OFFSET_BITS);
  }

  /** The Kafka offset of a row id ({@link #rowIds}). */
  public static long offsetOf(long rowId) {
    return rowId & ((1L << RowIdSplitReader.OFFSET_BITS) - 1);
  }

  /** The split-id prefix of a shard assignment ({@code kafka-shard-<k>-of-<n>}). */
  public static final String SHARD_PREFIX = "kafka-shard-";

  private final String sourceName;
  private final KafkaSourceConfig config;
  private final KafkaPartitionFeed feed;
  private final Schema schema;

  /** The rows' schema: the connector's columns, then the hidden row id when {@link #rowIds}. */
  private final Schema outSchema;

  /**
   * Rows end in a hidden {@code _row_id BIGINT}: {@code partition << 48 | offset}, the record's
   * exact Kafka offset, so a row names where it came from (a source backfill compares them) and a
   * record read again after a recovery gets the same id.
   */
  private final boolean rowIds;

  private final int shard;
  private final int shards;
  private final ConnectorStats stats;
  private final RecordDecoder decoder;

  /** Per connector column: the payload column it takes, or -1 for an include column. */
  private final int[] payloadIndex;

  /** Per connector column: what it includes, or null for a payload column. */
  private final Include[] includeOf;

  private final Object[] payload;

  /** FORMAT UPSERT: the key names the row, a null value deletes it. */
  private final boolean upsert;

  /** Per key column: its place among the payload columns. */
  private final int[] keyIndex;

  private final RecordDecoder keyDecoder;
  private final Object[] keyValues;
  private final List<dev.tideway.common.types.DataType> keyTypes;
  private final Map<Integer, PartitionReader> readers = new HashMap<>();
  private boolean started;

  /**
   * @param sourceName the source's name (metric labels, logs)
   * @param config the source's settings
   * @param schema the connector's columns: payload columns and include columns (by name)
   * @param rowIds whether rows end in the hidden row id ({@link #rowIds})
   * @param shard this actor's shard of {@code shards}
   */
  public KafkaSplits(
      String sourceName,
      KafkaSourceConfig config,
      Schema schema,
      boolean rowIds,
      int shard,
      int shards,
      List<String> keyColumns,
      String clientId,
      ConnectorStats stats) {
    this.sourceName = sourceName;
    this.config = config;
    this.schema = schema;
    this.rowIds = rowIds;
    List<Field> outFields = new ArrayList<>(schema.fields());
    if (rowIds) {
      outFields.add(Field.of(ROW_ID, dev.tideway.common.types.DataType.BIGINT));
    }
    this.outSchema = new Schema(outFields);
    this.shard = shard;
    this.shards = shards;
    this.stats = stats;
    Map<String, Include> includes = new HashMap<>();
    config.includes().forEach((what, col) -> includes.put(col, what));
    payloadIndex = new int[schema.size()];
    includeOf = new Include[schema.size()];
    List<Field> payloadFields = new ArrayList<>();
    for (int c = 0; c < schema.size(); c++) {
      includeOf[c] = includes.get(schema.field(c).name());
      payloadIndex[c] = includeOf[c] == null ? payloadFields.size() : -1;
      if (includeOf[c] == null) {
        payloadFields.add(schema.field(c));
      }
    }
    this.decoder = config.decoder(new Schema(payloadFields));
    this.payload = new Object[payloadFields.size()];
    this.upsert = config.format() == KafkaSourceConfig.Format.UPSERT;
    List<Field> keyFields = new ArrayList<>();
    keyIndex = new int[keyColumns.size()];
    for (int k = 0; k < keyColumns.size(); k++) {
      int c = indexOf(schema, keyColumns.get(k));
      keyIndex[k] = payloadIndex[c];
      keyFields.add(schema.field(c));
    }
    Checks.checkArgument(
        !upsert || keyIndex.length > 0,
        "source %s: an upsert source needs key columns",
        sourceName);
    this.keyDecoder = upsert ? new JsonRecordDecoder(new Schema(keyFields)) : null;
    this.keyValues = new Object[keyFields.size()];
    this.keyTypes = keyFields.stream().map(Field::type).toList();
    this.feed = new KafkaPartitionFeed(config, clientId);
  }

  /** Parses a shard assignment {@code kafka-shard-<k>-of-<n>}; fails naming a malformed one. */
  public static int[] parseShard(String splitId) {
    if (splitId.startsWith(SHARD_PREFIX)) {
      String[] kn = splitId.substring(SHARD_PREFIX.length()).split("-of-");
      if (kn.length == 2) {
        try {
          int k = Integer.parseInt(kn[0]);
          int n = Integer.parseInt(kn[1]);
          if (k >= 0 && k < n) {
            return new int[] {k, n};
          }
        } catch (NumberFormatException ignored) {
          // fall through to the error
        }
      }
    }
    throw new IllegalArgumentException("not a kafka shard assignment: " + splitId);
  }

  /** The readers of the partitions this shard owns now; the topic must exist. */
  public List<SplitReader> initial() {
    List<SplitReader> out = readersOf(feed.partitions());
    started = true;
    return out;
  }

  @Override
  public List<SplitReader> discover() {
    List<Integer> parts;
    try {
      parts = feed.partitions();
    } catch (KafkaException e) {
      LOG.warn(
          "source {}: cannot list the partitions of {}: {}",
          sourceName,
          config.topic(),
          e.toString());
      return null;
    }
    List<SplitReader> out = readersOf(parts);
    reportLag();
    return out;
  }

  private List<SplitReader> readersOf(List<Integer> partitions) {
    List<SplitReader> out = new ArrayList<>();
    for (int p : partitions) {
      if (p % shards != shard) {
        continue;
      }
      PartitionReader r = readers.get(p);
      if (r == null) {
        r = new PartitionReader(p, started);
        readers.put(p, r);
      }
      out.add(r);
    }
    return out;
  }

  private void reportLag() {
    if (readers.isEmpty()) {
      return;
    }
    try {
      Map<Integer, Long> ends = feed.endOffsets(readers.keySet());
      readers.forEach(
          (p, r) -> {
            Long end = ends.get(p);
            if (end != null && r.next >= 0) {
              stats.lag(sourceName, r.splitId(), Math.max(0, end - r.next));
            }
          });
    } catch (KafkaException e) {
      LOG.debug("source {}: no end offsets: {}", sourceName, e.toString());
    }
  }

  /** The end offsets of {@code partitions} now (the last stable offset, read committed). */
  Map<Integer, Long> endOffsets(java.util.Collection<Integer> partitions) {
    return feed.endOffsets(partitions);
  }

  /**
   * The startup position of each partition {@code readers} (from {@link #initial}) read, by
   * partition, asked in one request ({@link KafkaPartitionFeed#startOffsets}).
   */
  public Map<Integer, Long> startOffsets(List<SplitReader> readers) {
    List<Integer> partitions = new ArrayList<>();
    for (SplitReader r : readers) {
      partitions.add(((PartitionReader) r).partition());
    }
    return partitions.isEmpty() ? Map.of() : feed.startOffsets(partitions);
  }

  /** See {@link KafkaPartitionFeed#release}. */
  void release(int partition) {
    feed.release(partition);
  }

  /** See {@link KafkaPartitionFeed#drainedPosition}. */
  long drainedPosition(int partition) {
    return feed.drainedPosition(partition);
  }

  @Override
  public void close() {
    boolean interrupted =
        Thread.interrupted(); // a consumer refuses to close on an interrupted thread
    try {
      feed.close();
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** One partition: a split whose offsets are the partition's. */
  final class PartitionReader implements SplitReader {
    private final int partition;
    private final boolean addedLater;
    private final String splitId;

    /** The offset after the last record read, for the lag; -1 before the first read. */
    long next = -1;

    PartitionReader(int partition, boolean addedLater) {
      this.partition = partition;
      this.addedLater = addedLater;
      this.splitId = "kafka-" + config.topic() + "-" + partition;
    }

    @Override
    public String splitId() {
      return splitId;
    }

    @Override
    public Schema schema() {
      return outSchema;
    }

    /** The partition read. */
    public int partition() {
      return partition;
    }

    @Override
    public boolean isExhausted(long offset) {
      return false;
    }

    @Override
    public long startOffset() {
      // a partition that appeared while the job ran holds only records newer than the job
      return addedLater ? feed.startOffsetEarliest(partition) : feed.startOffset(partition);
    }

    @Override
    public Batch read(long offset, int maxRows) {
      List<ConsumerRecord<byte[], byte[]>> records =
          feed.take(partition, offset, maxRows, POLL_MILLIS);
      StreamChunkBuilder b = new StreamChunkBuilder(outSchema.types(), records.size());
      long nextOffset = offset;
      for (ConsumerRecord<byte[], byte[]> r : records) {
        nextOffset = r.offset() + 1;
        Op op;
        try {
          op = decode(r);
        } catch (MalformedRecordException e) {
          stats.recordSkipped(sourceName, splitId, r.offset(), e.getMessage());
          continue;
        }
        for (int c = 0; c < payloadIndex.length; c++) {
          ColumnBuilder col = b.column(c);
          if (includeOf[c] == null) {
            col.append(payload[payloadIndex[c]]);
          } else {
            col.append(include(includeOf[c], r));
          }
        }
        if (rowIds) {
          Checks.checkState(
              r.offset() < (1L << RowIdSplitReader.OFFSET_BITS),
              "partition %s: offset %s does not fit a row id",
              partition,
              r.offset());
          b.column(payloadIndex.length)
              .appendLong((long) partition << RowIdSplitReader.OFFSET_BITS | r.offset());
        }
        b.appendOp(op);
      }
      next = nextOffset;
      return new Batch(b.build(), nextOffset);
    }
  }

  /**
   * Fills {@link #payload} from {@code r}; the change it is: an insert, or for an upsert source's
   * record without a value, a delete of the row its key names. An upsert record's key must be
   * readable, and key columns written in its value must equal the key's.
   */
  private Op decode(ConsumerRecord<byte[], byte[]> r) throws MalformedRecordException {
    if (!upsert) {
      decoder.decode(r.value(), payload);
      return Op.INSERT;
    }
    boolean delete = r.value() == null;
    decodeKey(r.key()); // the key names the row: a record without a readable one is skipped
    if (delete) {
      java.util.Arrays.fill(payload, null);
    } else {
      decoder.decode(r.value(), payload);
    }
    for (int k = 0; k < keyIndex.length; k++) {
      Object inValue = payload[keyIndex[k]];
      if (inValue == null) {
        payload[keyIndex[k]] = keyValues[k];
      } else if (!inValue.equals(keyValues[k])) {
        throw new MalformedRecordException(
            "the value's key column(s) differ from the record's key");
      }
    }
    return delete ? Op.DELETE : Op.INSERT;
  }

  /** The key columns from a record key: a JSON object of them, or one key column's text. */
  private void decodeKey(byte[] key) throws MalformedRecordException {
    if (key == null || key.length == 0) {
      throw new MalformedRecordException("an upsert record without a key");
    }
    if (key[0] == '{') {
      keyDecoder.decode(key, keyValues);
      for (Object v : keyValues) {
        if (v == null) {
          throw new MalformedRecordException("the key has no value for a key column");
        }
      }
      return;
    }
    if (keyValues.length != 1) {
      throw new MalformedRecordException(
          "the key is not a JSON object of the " + keyValues.length + " key columns");
    }
    try {
      keyValues[0] =
          dev.tideway.common.types.Datums.fromText(
              keyTypes.get(0), new String(key, java.nio.charset.StandardCharsets.UTF_8));
    } catch (IllegalArgumentException e) {
      throw new MalformedRecordException("key: " + e.getMessage(), e);
    }
  }

  private static int indexOf(Schema schema, String name) {
    for (int c = 0; c < schema.size(); c++) {
      if (schema.field(c).name().equals(name)) {
        return c;
      }
    }
    throw new IllegalArgumentException("no column " + name + " in " + schema);
  }

  private static Object include(Include what, ConsumerRecord<byte[], byte[]> r) {
    return switch (what) {
      case KEY -> r.key();
      case PARTITION -> Integer.toString(r.partition());
      case OFFSET -> Long.toString(r.offset());
      case TIMESTAMP -> r.timestamp() < 0 ? null : Instant.ofEpochMilli(r.timestamp());
    };
  }

  /** For logs: {@code topic@servers}. */
  @Override
  public String toString() {
    return config.topic() + "@" + config.bootstrapServers();
  }
}
