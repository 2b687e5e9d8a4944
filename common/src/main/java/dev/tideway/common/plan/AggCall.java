package dev.tideway.common.plan;

import dev.tideway.common.check.Checks;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Schema;
import java.util.List;

/**
 * One aggregate call of a {@link StreamNode.HashAgg}: {@code kind(DISTINCT? args)}.
 *
 * @param kind the function; its argument count is checked
 * @param args input columns the function reads (none for {@code COUNT(*)})
 * @param returnType the result type the planner inferred ({@code sum(int)} is {@code bigint})
 * @param distinct {@code kind(DISTINCT ...)}; not allowed for {@code COUNT(*)}
 */
public record AggCall(
    AggKind kind, List<ExprNode.InputRef> args, DataType returnType, boolean distinct) {
  public AggCall {
    Checks.checkNotNull(kind, "aggregate kind");
    Checks.checkNotNull(returnType, "aggregate return type");
    args = List.copyOf(args);
    Checks.checkArgument(
        args.size() == kind.argCount(),
        "%s takes %s args, got %s: %s",
        kind,
        kind.argCount(),
        args.size(),
        args);
    Checks.checkArgument(!(distinct && kind == AggKind.COUNT_STAR), "count(DISTINCT *) is invalid");
  }

  /** {@code count(*)}. */
  public static AggCall countStar() {
    return new AggCall(AggKind.COUNT_STAR, List.of(), DataType.BIGINT, false);
  }

  /** {@code kind(arg)} without DISTINCT. */
  public static AggCall of(AggKind kind, ExprNode.InputRef arg, DataType returnType) {
    return new AggCall(kind, List.of(arg), returnType, false);
  }

  /** Fails naming the argument when one does not match {@code input}. */
  public void checkAgainst(Schema input) {
    for (ExprNode.InputRef a : args) {
      a.checkAgainst(input);
    }
  }
}
