package dev.tideway.compute.executor.source;

import dev.tideway.common.check.Checks;
import dev.tideway.common.chunk.ColumnVector;
import dev.tideway.common.chunk.Op;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.chunk.StreamChunkBuilder;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Field;
import dev.tideway.common.types.Schema;
import java.util.ArrayList;
import java.util.List;

/**
 * A split whose rows get the source's hidden {@code _row_id BIGINT} key appended: the row read at
 * the {@code i}-th place of a batch starting at offset {@code o} of split number {@code k} gets
 * {@code k << 48 | (o + i)}. A row consumes at least one offset, so the ids of two batches never
 * meet, and a split's ids are disjoint from every other split's; rows read again after a recovery
 * (from the restored offset on) get ids above every committed row's of their split. Offsets up to
 * 2^48 (325 days of a split at 10M rows/s) and split numbers up to 2^15 fit; a split past that
 * fails its source naming the offset.
 *
 * <p>Confined to the source actor's thread, as the reader it wraps.
 */
public final class RowIdSplitReader implements SplitReader {
  static final int OFFSET_BITS = 48;

  private final SplitReader inner;
  private final long splitNumber;
  private final Schema schema;

  /** Wraps {@code inner}, split number {@code splitNumber} of its source, naming the column. */
  public RowIdSplitReader(SplitReader inner, int splitNumber, String rowIdName) {
    Checks.checkArgument(
        splitNumber >= 0 && splitNumber < (1 << (63 - OFFSET_BITS)),
        "split number %s out of [0, 2^%s)",
        splitNumber,
        63 - OFFSET_BITS);
    this.inner = inner;
    this.splitNumber = splitNumber;
    List<Field> fields = new ArrayList<>(inner.schema().fields());
    fields.add(Field.of(rowIdName, DataType.BIGINT));
    this.schema = new Schema(fields);
  }

  @Override
  public String splitId() {
    return inner.splitId();
  }

  @Override
  public Schema schema() {
    return schema;
  }

  @Override
  public Batch read(long offset, int maxRows) {
    Batch b = inner.read(offset, maxRows);
    StreamChunk c = b.chunk();
    Checks.checkState(
        offset + c.size() <= b.nextOffset() && b.nextOffset() < (1L << OFFSET_BITS),
        "split %s: %s rows from offset %s to %s cannot take one row id per offset",
        inner.splitId(),
        c.size(),
        offset,
        b.nextOffset());
    StreamChunkBuilder ids = new StreamChunkBuilder(List.of(DataType.BIGINT), c.size());
    for (int i = 0; i < c.size(); i++) {
      ids.column(0).appendLong(splitNumber << OFFSET_BITS | (offset + i));
      ids.appendOp(Op.INSERT);
    }
    ColumnVector[] cols = new ColumnVector[c.columnCount() + 1];
    for (int k = 0; k < c.columnCount(); k++) {
      cols[k] = c.column(k);
    }
    cols[c.columnCount()] = ids.build().column(0);
    return new Batch(c.withColumns(cols), b.nextOffset());
  }

  @Override
  public boolean isExhausted(long offset) {
    return inner.isExhausted(offset);
  }

  @Override
  public long startOffset() {
    return inner.startOffset();
  }
}
