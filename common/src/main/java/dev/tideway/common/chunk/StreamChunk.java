package dev.tideway.common.chunk;

import dev.tideway.common.check.Checks;
import dev.tideway.common.row.Row;
import dev.tideway.common.types.DataType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A batch of row changes in columnar form: one {@link Op} per row, typed {@link ColumnVector}s and
 * a visibility bitmap. Invisible rows are still physically present (a filter clears bits instead of
 * copying columns) and every consumer must skip them; {@link #compact()} drops them.
 *
 * <p>Immutable and safe to share between threads.
 */
public final class StreamChunk {
  private final byte[] ops;
  private final ColumnVector[] columns;
  private final int size;

  /** Bit i set = row i is visible; {@code null} when every row is visible. */
  private final long[] visibility;

  /** Visible rows, cached at construction since every consumer asks. */
  private final int cardinality;

  StreamChunk(byte[] ops, ColumnVector[] columns, int size, long[] visibility) {
    for (int c = 0; c < columns.length; c++) {
      Checks.checkArgument(
          columns[c].size() == size,
          "column %s has %s rows but the chunk has %s",
          c,
          columns[c].size(),
          size);
    }
    this.ops = ops;
    this.columns = columns;
    this.size = size;
    this.visibility = visibility;
    this.cardinality = visibility == null ? size : countBits(visibility, size);
  }

  /** An empty chunk of the given column types. */
  public static StreamChunk empty(List<DataType> types) {
    return new StreamChunkBuilder(types, 0).build();
  }

  /** Rows physically present, visible or not. */
  public int size() {
    return size;
  }

  /** Visible rows. */
  public int cardinality() {
    return cardinality;
  }

  public int columnCount() {
    return columns.length;
  }

  public ColumnVector column(int c) {
    return columns[Checks.checkIndex(c, columns.length, "chunk column")];
  }

  public List<DataType> types() {
    List<DataType> t = new ArrayList<>(columns.length);
    for (ColumnVector v : columns) {
      t.add(v.type());
    }
    return t;
  }

  public Op op(int row) {
    return Op.fromCode(ops[row]);
  }

  /** The op byte code of {@code row}; for inner loops. */
  public byte opCode(int row) {
    return ops[row];
  }

  public boolean isVisible(int row) {
    return visibility == null || (visibility[row >>> 6] & (1L << row)) != 0;
  }

  /** True when some row is hidden. */
  public boolean hasHiddenRows() {
    return cardinality != size;
  }

  /** Row {@code i}'s values as a {@link Row} (boxed; for edges and tests). */
  public Row row(int i) {
    Checks.checkIndex(i, size, "chunk row");
    Object[] values = new Object[columns.length];
    for (int c = 0; c < columns.length; c++) {
      values[c] = columns[c].get(i);
    }
    return Row.wrap(values);
  }

  /** The visible rows with their ops, in order. */
  public List<OpRow> visibleRows() {
    List<OpRow> out = new ArrayList<>(cardinality);
    for (int i = 0; i < size; i++) {
      if (isVisible(i)) {
        out.add(new OpRow(op(i), row(i)));
      }
    }
    return out;
  }

  /** A row with its op. */
  public record OpRow(Op op, Row row) {}

  /**
   * The same rows with a new visibility: {@code visible[i]} false hides row i (rows already hidden
   * stay hidden).
   */
  public StreamChunk withVisibility(boolean[] visible) {
    Checks.checkArgument(
        visible.length >= size, "visibility has %s entries for %s rows", visible.length, size);
    long[] bits = new long[(size + 63) >>> 6];
    for (int i = 0; i < size; i++) {
      if (visible[i] && isVisible(i)) {
        bits[i >>> 6] |= 1L << i;
      }
    }
    return new StreamChunk(ops, columns, size, bits);
  }

  /** The same rows and visibility with other columns (a projection). */
  public StreamChunk withColumns(ColumnVector[] newColumns) {
    return new StreamChunk(ops, newColumns.clone(), size, visibility);
  }

  /** The same columns with the ops replaced. */
  public StreamChunk withOps(byte[] newOps) {
    Checks.checkArgument(
        newOps.length >= size, "ops has %s entries for %s rows", newOps.length, size);
    return new StreamChunk(newOps.clone(), columns, size, visibility);
  }

  /**
   * A chunk holding only the visible rows. Returns {@code this} when nothing is hidden. A hidden
   * {@code U-}/{@code U+} half turns the visible half into a plain {@code -}/{@code +}, so the
   * update-pair invariant holds in the result.
   */
  public StreamChunk compact() {
    if (!hasHiddenRows()) {
      return this;
    }
    StreamChunkBuilder b = new StreamChunkBuilder(types(), cardinality);
    for (int i = 0; i < size; i++) {
      if (!isVisible(i)) {
        continue;
      }
      Op op = op(i);
      if (op == Op.UPDATE_DELETE && !(i + 1 < size && isVisible(i + 1))) {
        op = Op.DELETE;
      } else if (op == Op.UPDATE_INSERT && !(i > 0 && isVisible(i - 1))) {
        op = Op.INSERT;
      }
      b.appendRowFrom(op, this, i);
    }
    return b.build();
  }

  byte[] opsArray() {
    return ops;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof StreamChunk other)) {
      return false;
    }
    if (!types().equals(other.types()) || size != other.size) {
      return false;
    }
    for (int i = 0; i < size; i++) {
      if (ops[i] != other.ops[i]
          || isVisible(i) != other.isVisible(i)
          || !row(i).equals(other.row(i))) {
        return false;
      }
    }
    return true;
  }

  @Override
  public int hashCode() {
    int h = types().hashCode();
    for (int i = 0; i < size; i++) {
      h = 31 * h + ops[i];
      h = 31 * h + (isVisible(i) ? 1 : 0);
      h = 31 * h + row(i).hashCode();
    }
    return h;
  }

  @Override
  public String toString() {
    return Chunks.pretty(this);
  }

  private static int countBits(long[] bits, int size) {
    int n = 0;
    int full = size >>> 6;
    for (int w = 0; w < full; w++) {
      n += Long.bitCount(bits[w]);
    }
    if ((size & 63) != 0) {
      n += Long.bitCount(bits[full] & ((1L << size) - 1));
    }
    return n;
  }

  static long[] allVisible(int size) {
    long[] bits = new long[(size + 63) >>> 6];
    Arrays.fill(bits, -1L);
    return bits;
  }

  /** The visibility bitmap ({@code null} = all visible); for the wire codec only, never modify. */
  long[] visibilityBitmap() {
    return visibility;
  }
}
