package dev.tideway.compute.executor;

import dev.tideway.barrier.executor.Executor;
import dev.tideway.barrier.executor.ExecutorInfo;
import dev.tideway.barrier.message.Message;
import dev.tideway.barrier.message.Watermark;
import dev.tideway.common.check.Checks;
import dev.tideway.common.chunk.ColumnVector;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.plan.ExprNode;
import dev.tideway.common.types.Schema;
import dev.tideway.compute.expr.ExprCompiler;
import dev.tideway.compute.expr.ExprErrorSink;
import dev.tideway.compute.expr.Expression;
import java.util.List;

/**
 * Computes one output column per expression for every chunk; ops and visibility are kept, so hidden
 * rows stay hidden (and are never evaluated). A watermark on an input column that some output
 * column passes through unchanged ({@code $i}) is re-emitted on the first such column; other
 * watermarks are dropped, since a computed column need not be monotonic in its input.
 *
 * <p>Confined to the actor thread.
 */
public final class ProjectExecutor implements Executor {
  private final ExecutorInfo info;
  private final Executor input;
  private final List<Expression> exprs;
  private final Schema schema;

  /** For input column i, the first output column that is exactly {@code $i}, or -1. */
  private final int[] passThrough;

  /** Compiles {@code exprs} over {@code input}'s schema; {@code schema} names the outputs. */
  public ProjectExecutor(ExecutorInfo info, Executor input, List<ExprNode> exprs, Schema schema) {
    this(info, input, exprs, schema, ExprErrorSink.STRICT);
  }

  /** As above; a value that fails to evaluate becomes NULL and its error goes to {@code errors}. */
  public ProjectExecutor(
      ExecutorInfo info,
      Executor input,
      List<ExprNode> exprs,
      Schema schema,
      ExprErrorSink errors) {
    this.info = info;
    this.input = input;
    this.exprs = ExprCompiler.compileAll(exprs, input.schema().types(), errors);
    this.schema = schema;
    Checks.checkArgument(
        exprs.size() == schema.size(),
        "%s: %s expressions for %s output columns %s",
        info,
        exprs.size(),
        schema.size(),
        schema);
    for (int i = 0; i < exprs.size(); i++) {
      Checks.checkArgument(
          exprs.get(i).returnType().equals(schema.type(i)),
          "%s: expression %s returns %s but output column %s is %s",
          info,
          exprs.get(i),
          exprs.get(i).returnType(),
          i,
          schema.type(i));
    }
    this.passThrough = new int[input.schema().size()];
    java.util.Arrays.fill(passThrough, -1);
    for (int o = exprs.size() - 1; o >= 0; o--) {
      if (exprs.get(o) instanceof ExprNode.InputRef ref) {
        passThrough[ref.index()] = o;
      }
    }
  }

  /** Output columns named {@code c0, c1, ...}. */
  public static ProjectExecutor of(ExecutorInfo info, Executor input, List<ExprNode> exprs) {
    return new ProjectExecutor(
        info, input, exprs, Schema.ofTypes(exprs.stream().map(ExprNode::returnType).toList()));
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
    while (true) {
      Message m = input.next();
      if (m instanceof Message.Chunk c) {
        return Message.of(project(c.chunk()));
      }
      if (m instanceof Watermark w) {
        int out = passThrough[w.columnIndex()];
        if (out < 0) {
          continue;
        }
        return new Watermark(out, w.type(), w.value());
      }
      return m;
    }
  }

  /** The projected chunk (same ops and visibility). */
  StreamChunk project(StreamChunk chunk) {
    boolean[] sel = dev.tideway.compute.expr.Vectors.visibleRows(chunk);
    ColumnVector[] cols = new ColumnVector[exprs.size()];
    for (int i = 0; i < cols.length; i++) {
      cols[i] = exprs.get(i).eval(chunk, sel);
    }
    return chunk.withColumns(cols);
  }
}
