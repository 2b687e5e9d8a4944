package dev.tideway.compute.executor;

import dev.tideway.barrier.executor.Executor;
import dev.tideway.barrier.executor.ExecutorInfo;
import dev.tideway.barrier.message.Message;
import dev.tideway.common.check.Checks;
import dev.tideway.common.chunk.ColumnBuilder;
import dev.tideway.common.chunk.LongVector;
import dev.tideway.common.chunk.Op;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.chunk.StreamChunkBuilder;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Field;
import dev.tideway.common.types.Interval;
import dev.tideway.common.types.Schema;
import dev.tideway.common.types.TypeId;
import dev.tideway.compute.expr.ExprCompiler;
import dev.tideway.compute.expr.Vectors;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * {@code HOP(input, timeColumn, slide, size)}: each visible row is emitted once per window holding
 * its time, {@code size / slide} times, with {@code window_start} and {@code window_end} appended
 * (windows start at multiples of {@code slide} since 1970-01-01, earliest first). Rows with a NULL
 * time belong to no window and are dropped.
 *
 * <p>The two halves of an update may fall into different windows, so {@code U-}/{@code U+} are
 * emitted as {@code -}/{@code +}: each copy of the old row is retracted and each copy of the new
 * row inserted, which every downstream operator handles like the update it was.
 *
 * <p>Confined to the actor thread.
 */
public final class HopWindowExecutor implements Executor {
  private final ExecutorInfo info;
  private final Executor input;
  private final UnaryOperator<StreamChunk> mapper = this::expand;
  private final int timeColumn;
  private final long slideMicros;
  private final long sizeMicros;
  private final int windowsPerRow;
  private final Schema schema;

  public HopWindowExecutor(
      ExecutorInfo info, Executor input, int timeColumn, Interval slide, Interval size) {
    this.info = info;
    this.input = input;
    this.timeColumn = timeColumn;
    Schema in = input.schema();
    Checks.checkArgument(
        timeColumn >= 0 && timeColumn < in.size(),
        "%s: hop time column %s out of [0, %s)",
        info,
        timeColumn,
        in.size());
    DataType t = in.type(timeColumn);
    Checks.checkArgument(
        t.id() == TypeId.TIMESTAMP || t.id() == TypeId.TIMESTAMPTZ,
        "%s: hop time column $%s must be a timestamp, got %s",
        info,
        timeColumn,
        t);
    this.slideMicros = ExprCompiler.windowMicros(slide);
    this.sizeMicros = ExprCompiler.windowMicros(size);
    Checks.checkArgument(
        sizeMicros % slideMicros == 0,
        "%s: hop size %s must be a multiple of the slide %s",
        info,
        size,
        slide);
    this.windowsPerRow = (int) (sizeMicros / slideMicros);
    List<Field> fields = new ArrayList<>(in.fields());
    fields.add(Field.of("window_start", t));
    fields.add(Field.of("window_end", t));
    this.schema = new Schema(fields);
  }

  @Override
  public Schema schema() {
    return schema;
  }

  @Override
  public ExecutorInfo info() {
    return info;
  }

  @Override
  public Message next() {
    return ChunkMapping.next(input, mapper);
  }

  StreamChunk expand(StreamChunk chunk) {
    int n = chunk.size();
    int cols = chunk.columnCount();
    LongVector time = (LongVector) chunk.column(timeColumn);
    StreamChunkBuilder b =
        new StreamChunkBuilder(schema.types(), chunk.cardinality() * windowsPerRow);
    ColumnBuilder start = b.column(cols);
    ColumnBuilder end = b.column(cols + 1);
    for (int i = 0; i < n; i++) {
      if (!chunk.isVisible(i) || time.isNull(i)) {
        continue;
      }
      Op op = chunk.op(i).isInsert() ? Op.INSERT : Op.DELETE;
      long t = time.getLong(i);
      long last = t - Math.floorMod(t, slideMicros);
      for (int k = windowsPerRow - 1; k >= 0; k--) {
        long ws = last - k * slideMicros;
        for (int c = 0; c < cols; c++) {
          Vectors.appendFrom(b.column(c), chunk.column(c), i);
        }
        start.appendLong(ws);
        end.appendLong(ws + sizeMicros);
        b.appendOp(op);
      }
    }
    return b.build();
  }
}
