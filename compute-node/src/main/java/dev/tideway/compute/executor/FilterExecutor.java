package dev.tideway.compute.executor;

import dev.tideway.barrier.executor.Executor;
import dev.tideway.barrier.executor.ExecutorInfo;
import dev.tideway.barrier.message.Message;
import dev.tideway.common.chunk.BoolVector;
import dev.tideway.common.chunk.Op;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.plan.ExprNode;
import dev.tideway.common.types.Schema;
import dev.tideway.compute.expr.ExprCompiler;
import dev.tideway.compute.expr.ExprErrorSink;
import dev.tideway.compute.expr.Expression;
import dev.tideway.compute.expr.Vectors;
import java.util.function.UnaryOperator;

/**
 * Keeps the rows for which the predicate is true (NULL and false are dropped) by clearing
 * visibility bits, without copying columns. When a predicate keeps only one half of an update pair
 * (the row moved into or out of the filter), the kept half becomes a plain {@code -} or {@code +},
 * as {@link StreamChunk#compact()} does, so the update-pair invariant holds downstream. A chunk
 * with no visible row left is not emitted.
 *
 * <p>Confined to the actor thread.
 */
public final class FilterExecutor implements Executor {
  private final ExecutorInfo info;
  private final Executor input;
  private final UnaryOperator<StreamChunk> mapper = this::filter;
  private final Expression predicate;

  public FilterExecutor(ExecutorInfo info, Executor input, ExprNode predicate) {
    this(info, input, predicate, ExprErrorSink.STRICT);
  }

  /**
   * As above; a row whose predicate fails to evaluate is dropped and reported to {@code errors}.
   */
  public FilterExecutor(
      ExecutorInfo info, Executor input, ExprNode predicate, ExprErrorSink errors) {
    this.info = info;
    this.input = input;
    this.predicate = ExprCompiler.compile(predicate, input.schema().types(), errors);
    dev.tideway.common.check.Checks.checkArgument(
        predicate.returnType().id() == dev.tideway.common.types.TypeId.BOOLEAN,
        "%s: filter predicate %s returns %s, not boolean",
        info,
        predicate,
        predicate.returnType());
  }

  @Override
  public Schema schema() {
    return input.schema();
  }

  @Override
  public ExecutorInfo info() {
    return info;
  }

  @Override
  public Message next() {
    return ChunkMapping.next(input, mapper);
  }

  /** The chunk with the rows failing the predicate hidden and split update pairs fixed. */
  StreamChunk filter(StreamChunk chunk) {
    int n = chunk.size();
    boolean[] sel = Vectors.visibleRows(chunk);
    BoolVector v = (BoolVector) predicate.eval(chunk, sel);
    boolean[] keep = new boolean[n];
    for (int i = 0; i < n; i++) {
      keep[i] = sel[i] && !v.isNull(i) && v.getBoolean(i);
    }
    byte[] ops = null;
    for (int i = 0; i < n; i++) {
      if (!keep[i]) {
        continue;
      }
      byte op = chunk.opCode(i);
      Op fixed = null;
      if (op == Op.UPDATE_DELETE.code() && !(i + 1 < n && keep[i + 1])) {
        fixed = Op.DELETE;
      } else if (op == Op.UPDATE_INSERT.code() && !(i > 0 && keep[i - 1])) {
        fixed = Op.INSERT;
      }
      if (fixed != null) {
        if (ops == null) {
          ops = new byte[n];
          for (int j = 0; j < n; j++) {
            ops[j] = chunk.opCode(j);
          }
        }
        ops[i] = fixed.code();
      }
    }
    StreamChunk out = chunk.withVisibility(keep);
    return ops == null ? out : out.withOps(ops);
  }
}
