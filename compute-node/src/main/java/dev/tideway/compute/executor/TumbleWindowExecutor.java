package dev.tideway.compute.executor;

import dev.tideway.barrier.executor.Executor;
import dev.tideway.barrier.executor.ExecutorInfo;
import dev.tideway.barrier.message.Message;
import dev.tideway.common.check.Checks;
import dev.tideway.common.plan.ExprNode;
import dev.tideway.common.plan.FunctionKind;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Field;
import dev.tideway.common.types.Interval;
import dev.tideway.common.types.Schema;
import dev.tideway.common.types.TypeId;
import dev.tideway.compute.expr.ExprCompiler;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code TUMBLE(input, timeColumn, size)} as a projection: every input column, then {@code
 * window_start = tumble_start(time, size)} and {@code window_end = window_start + size}. Windows
 * are aligned to 1970-01-01 00:00; a NULL time gives NULL window columns. Row counts, ops and
 * visibility are unchanged, so updates stay paired.
 *
 * <p>Confined to the actor thread.
 */
public final class TumbleWindowExecutor implements Executor {
  private final ProjectExecutor project;

  public TumbleWindowExecutor(ExecutorInfo info, Executor input, int timeColumn, Interval size) {
    Schema in = input.schema();
    Checks.checkArgument(
        timeColumn >= 0 && timeColumn < in.size(),
        "%s: tumble time column %s out of [0, %s)",
        info,
        timeColumn,
        in.size());
    DataType t = in.type(timeColumn);
    Checks.checkArgument(
        t.id() == TypeId.TIMESTAMP || t.id() == TypeId.TIMESTAMPTZ,
        "%s: tumble time column $%s must be a timestamp, got %s",
        info,
        timeColumn,
        t);
    ExprCompiler.windowMicros(size);
    List<ExprNode> exprs = new ArrayList<>();
    List<Field> fields = new ArrayList<>(in.fields());
    for (int i = 0; i < in.size(); i++) {
      exprs.add(new ExprNode.InputRef(i, in.type(i)));
    }
    ExprNode start =
        ExprNode.FunctionCall.of(
            FunctionKind.TUMBLE_START,
            t,
            new ExprNode.InputRef(timeColumn, t),
            new ExprNode.Literal(size, DataType.INTERVAL));
    exprs.add(start);
    exprs.add(
        ExprNode.FunctionCall.of(
            FunctionKind.ADD, t, start, new ExprNode.Literal(size, DataType.INTERVAL)));
    fields.add(Field.of("window_start", t));
    fields.add(Field.of("window_end", t));
    this.project = new ProjectExecutor(info, input, exprs, new Schema(fields));
  }

  @Override
  public Schema schema() {
    return project.schema();
  }

  @Override
  public ExecutorInfo info() {
    return project.info();
  }

  @Override
  public Message next() {
    return project.next();
  }
}
