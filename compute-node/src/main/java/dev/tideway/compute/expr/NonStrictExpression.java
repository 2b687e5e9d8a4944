package dev.tideway.compute.expr;

import dev.tideway.common.chunk.ColumnBuilder;
import dev.tideway.common.chunk.ColumnVector;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.types.DataType;

/**
 * An expression whose failing rows yield NULL instead of failing the chunk. The whole chunk is
 * evaluated at once, as usual; only when that raises an {@link ExprException} are the selected rows
 * split in halves and evaluated again, down to the single rows that fail, which become NULL and are
 * reported to the {@link ExprErrorSink}. A chunk with k failing rows of n costs about {@code
 * 2k·log2(n)} extra evaluations, and nothing when no row fails.
 *
 * <p>Deterministic: the same row always yields the same value, so a retraction of a row that got
 * NULL retracts exactly the NULL that was emitted. Confined to the actor thread, like the
 * expression it wraps.
 */
final class NonStrictExpression implements Expression {
  private final Expression inner;
  private final ExprErrorSink errors;

  NonStrictExpression(Expression inner, ExprErrorSink errors) {
    this.inner = inner;
    this.errors = errors;
  }

  @Override
  public DataType returnType() {
    return inner.returnType();
  }

  @Override
  public ColumnVector eval(StreamChunk chunk, boolean[] selected) {
    try {
      return inner.eval(chunk, selected);
    } catch (ExprException e) {
      int n = chunk.size();
      Object[] values = new Object[n];
      bisect(chunk, selected, 0, n, values);
      ColumnBuilder b = ColumnVector.builder(inner.returnType(), n);
      for (Object v : values) {
        b.append(v);
      }
      return b.build();
    }
  }

  /** Fills {@code out[from, to)} for the selected rows, NULL where a single row fails. */
  private void bisect(StreamChunk chunk, boolean[] selected, int from, int to, Object[] out) {
    boolean[] mask = new boolean[chunk.size()];
    int count = 0;
    for (int i = from; i < to; i++) {
      if (selected[i]) {
        mask[i] = true;
        count++;
      }
    }
    if (count == 0) {
      return;
    }
    try {
      ColumnVector v = inner.eval(chunk, mask);
      for (int i = from; i < to; i++) {
        if (mask[i]) {
          out[i] = v.get(i);
        }
      }
    } catch (ExprException e) {
      if (count == 1) {
        errors.report(e);
        return;
      }
      int mid = (from + to) >>> 1;
      bisect(chunk, selected, from, mid, out);
      bisect(chunk, selected, mid, to, out);
    }
  }

  @Override
  public String toString() {
    return inner.toString();
  }
}
