package dev.tideway.compute.executor.sink;

import dev.tideway.common.chunk.Op;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.row.Row;
import dev.tideway.common.types.Schema;
import dev.tideway.connector.format.JsonRowEncoder;
import dev.tideway.connector.kafka.KafkaSinkConfig;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A chunk's changes as Kafka records {@code {key, value}} in the sink's format: PLAIN writes
 * inserts and the new rows of updates (no key); UPSERT keys each record by the row's key columns,
 * the row as value and a delete as a null value (an update whose key stays is one record); DEBEZIUM
 * writes {@code {"before", "after", "op"}} keyed the same way. Confined to one thread.
 */
public final class ChangeEncoder {
  private final KafkaSinkConfig.Format format;
  private final JsonRowEncoder rows;
  private final List<Integer> key;
  private final List<Integer> columns;

  /**
   * @param key the columns of a record's key
   * @param columns the columns written (the query's visible ones)
   */
  public ChangeEncoder(
      KafkaSinkConfig.Format format, Schema schema, List<Integer> key, List<Integer> columns) {
    this.format = format;
    this.rows = new JsonRowEncoder(schema);
    this.key = List.copyOf(key);
    this.columns = List.copyOf(columns);
  }

  /** The records of {@code chunk}'s visible changes, in order. */
  public List<byte[][]> encode(StreamChunk chunk) {
    List<byte[][]> out = new ArrayList<>();
    int n = chunk.size();
    for (int i = 0; i < n; i++) {
      if (!chunk.isVisible(i)) {
        continue;
      }
      Op op = chunk.op(i);
      Object[] row = values(chunk.row(i));
      if (op == Op.UPDATE_DELETE && i + 1 < n && chunk.isVisible(i + 1)) {
        Object[] next = values(chunk.row(i + 1));
        if (format != KafkaSinkConfig.Format.PLAIN && sameKey(row, next)) {
          out.add(update(row, next));
          i++;
          continue;
        }
      }
      boolean insert = op == Op.INSERT || op == Op.UPDATE_INSERT;
      switch (format) {
        case PLAIN -> {
          if (insert) {
            out.add(new byte[][] {null, rows.encode(row, columns)});
          }
        }
        case UPSERT ->
            out.add(
                new byte[][] {rows.encode(row, key), insert ? rows.encode(row, columns) : null});
        case DEBEZIUM ->
            out.add(
                new byte[][] {
                  rows.encode(row, key),
                  insert ? envelope(null, row, "c") : envelope(row, null, "d")
                });
      }
    }
    return out;
  }

  private byte[][] update(Object[] before, Object[] after) {
    byte[] k = rows.encode(after, key);
    return format == KafkaSinkConfig.Format.UPSERT
        ? new byte[][] {k, rows.encode(after, columns)}
        : new byte[][] {k, envelope(before, after, "u")};
  }

  private boolean sameKey(Object[] a, Object[] b) {
    for (int k : key) {
      if (!java.util.Objects.deepEquals(a[k], b[k])) {
        return false;
      }
    }
    return true;
  }

  private byte[] envelope(Object[] before, Object[] after, String op) {
    return rows.debezium(before, after, op, columns);
  }

  private static Object[] values(Row r) {
    Object[] out = new Object[r.size()];
    Arrays.setAll(out, r::get);
    return out;
  }
}
