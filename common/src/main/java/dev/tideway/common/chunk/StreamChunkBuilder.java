package dev.tideway.common.chunk;

import dev.tideway.common.check.Checks;
import dev.tideway.common.row.Row;
import dev.tideway.common.types.DataType;
import java.util.Arrays;
import java.util.List;

/**
 * Builds a {@link StreamChunk} row by row. Typed appends go through {@link #column(int)} followed
 * by {@link #appendOp} (so the hot path never boxes); {@link #append(Op, Row)} is the convenient
 * form. Not thread-safe; use once.
 */
public final class StreamChunkBuilder {
  private final ColumnBuilder[] columns;
  private byte[] ops;
  private int size;

  /** Bit i set = row i hidden; {@code null} while every row is visible. */
  private long[] hidden;

  public StreamChunkBuilder(List<DataType> types, int capacity) {
    columns = new ColumnBuilder[types.size()];
    for (int c = 0; c < columns.length; c++) {
      columns[c] = ColumnBuilder.create(types.get(c), capacity);
    }
    ops = new byte[Math.max(capacity, 4)];
  }

  /** Rows appended so far. */
  public int size() {
    return size;
  }

  /** The builder of column {@code c}, for typed appends; finish each row with {@link #appendOp}. */
  public ColumnBuilder column(int c) {
    return columns[c];
  }

  /** Ends a row whose column values were appended through {@link #column(int)}. */
  public StreamChunkBuilder appendOp(Op op) {
    for (int c = 0; c < columns.length; c++) {
      Checks.checkState(
          columns[c].size() == size + 1,
          "row %s: column %s has %s values, expected %s",
          size,
          c,
          columns[c].size(),
          size + 1);
    }
    if (size == ops.length) {
      ops = Arrays.copyOf(ops, ops.length * 2);
    }
    ops[size++] = op.code();
    return this;
  }

  /** Appends a row; its values must match the column types. */
  public StreamChunkBuilder append(Op op, Row row) {
    Checks.checkArgument(
        row.size() == columns.length,
        "row %s has %s values but the chunk has %s columns",
        row,
        row.size(),
        columns.length);
    for (int c = 0; c < columns.length; c++) {
      columns[c].append(row.get(c));
    }
    return appendOp(op);
  }

  /** Appends row {@code i} of {@code source} (same types) with {@code op}. */
  public StreamChunkBuilder appendRowFrom(Op op, StreamChunk source, int i) {
    for (int c = 0; c < columns.length; c++) {
      columns[c].appendFrom(source.column(c), i);
    }
    return appendOp(op);
  }

  /** Hides the last appended row (for tests of visibility handling). */
  public StreamChunkBuilder hideLast() {
    Checks.checkState(size > 0, "no row to hide");
    if (hidden == null) {
      hidden = new long[(ops.length + 63) >>> 6];
    } else if (hidden.length << 6 < size) {
      hidden = Arrays.copyOf(hidden, (ops.length + 63) >>> 6);
    }
    int i = size - 1;
    hidden[i >>> 6] |= 1L << i;
    return this;
  }

  public StreamChunk build() {
    ColumnVector[] vectors = new ColumnVector[columns.length];
    for (int c = 0; c < columns.length; c++) {
      vectors[c] = columns[c].build();
    }
    long[] visibility = null;
    if (hidden != null) {
      visibility = StreamChunk.allVisible(size);
      for (int w = 0; w < visibility.length && w < hidden.length; w++) {
        visibility[w] &= ~hidden[w];
      }
    }
    return new StreamChunk(Arrays.copyOf(ops, size), vectors, size, visibility);
  }
}
