package dev.tideway.compute.expr;

import dev.tideway.common.chunk.ColumnVector;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.types.DataType;

/**
 * A compiled scalar expression: computes one column over a chunk per call.
 *
 * <p>Stateless apart from caches of constants, and confined to the thread of the executor that owns
 * it (compile one per executor).
 */
public interface Expression {
  /** The type of every value produced. */
  DataType returnType();

  /**
   * Evaluates the rows with {@code selected[i]} set. The result has {@code chunk.size()} rows; the
   * value of a row not selected is unspecified (often NULL), and such a row never raises an error.
   *
   * @throws ExprException for overflow, division by zero, a bad cast or a bad argument
   */
  ColumnVector eval(StreamChunk chunk, boolean[] selected);

  /** Evaluates the visible rows of {@code chunk}. */
  default ColumnVector eval(StreamChunk chunk) {
    return eval(chunk, Vectors.visibleRows(chunk));
  }
}
