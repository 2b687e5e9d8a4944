package dev.tideway.common.plan;

import dev.tideway.common.check.Checks;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Schema;
import dev.tideway.common.types.TypeId;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * A scalar expression over the columns of an operator's input, as the planner typed it. Compute
 * nodes compile it into an evaluator; the plan only carries the shape.
 *
 * <p>Every node knows its {@link #returnType()}; {@link #checkAgainst(Schema)} verifies that each
 * {@link InputRef} points at an input column of the declared type.
 */
public sealed interface ExprNode
    permits ExprNode.InputRef, ExprNode.Literal, ExprNode.FunctionCall, ExprNode.Cast {

  /** The type of the value this expression produces. */
  DataType returnType();

  /** Fails naming the reference when an {@link InputRef} does not match {@code input}. */
  void checkAgainst(Schema input);

  /**
   * Column {@code index} of the input.
   *
   * @param index column position in the input, {@code >= 0}
   * @param type the column's type (checked against the input by {@link #checkAgainst})
   */
  record InputRef(int index, DataType type) implements ExprNode {
    public InputRef {
      Checks.checkArgument(index >= 0, "input ref index must be >= 0, got %s", index);
      Checks.checkNotNull(type, "input ref type");
    }

    @Override
    public DataType returnType() {
      return type;
    }

    @Override
    public void checkAgainst(Schema input) {
      Checks.checkArgument(
          index < input.size(), "input ref $%s out of [0, %s) of %s", index, input.size(), input);
      Checks.checkArgument(
          input.type(index).equals(type),
          "input ref $%s has type %s but the input column is %s",
          index,
          type,
          input.type(index));
    }

    @Override
    public String toString() {
      return "$" + index;
    }
  }

  /**
   * A constant. {@code value} is a Java value of {@code type} as {@link DataType} maps them, or
   * {@code null} for a typed SQL NULL. Equality compares {@code byte[]} by content.
   */
  record Literal(Object value, DataType type) implements ExprNode {
    public Literal {
      Checks.checkNotNull(type, "literal type");
      Checks.checkArgument(
          type.accepts(value),
          "literal %s (%s) is not a %s",
          value,
          value == null ? "null" : value.getClass().getSimpleName(),
          type);
    }

    /** A typed NULL. */
    public static Literal nullOf(DataType type) {
      return new Literal(null, type);
    }

    @Override
    public DataType returnType() {
      return type;
    }

    @Override
    public void checkAgainst(Schema input) {}

    @Override
    public boolean equals(Object o) {
      return o instanceof Literal l && type.equals(l.type) && Objects.deepEquals(value, l.value);
    }

    @Override
    public int hashCode() {
      return 31 * type.hashCode() + Arrays.deepHashCode(new Object[] {value});
    }
  }

  /**
   * A call of a built-in scalar function.
   *
   * @param kind which function; its arity range is checked
   * @param args the arguments in order
   * @param returnType the type the planner inferred
   */
  record FunctionCall(FunctionKind kind, List<ExprNode> args, DataType returnType)
      implements ExprNode {
    public FunctionCall {
      Checks.checkNotNull(kind, "function kind");
      Checks.checkNotNull(returnType, "function return type");
      args = List.copyOf(args);
      Checks.checkArgument(
          args.size() >= kind.minArgs() && args.size() <= kind.maxArgs(),
          "%s takes %s..%s args, got %s: %s",
          kind,
          kind.minArgs(),
          kind.maxArgs() == Integer.MAX_VALUE ? "n" : kind.maxArgs(),
          args.size(),
          args);
    }

    public static FunctionCall of(FunctionKind kind, DataType returnType, ExprNode... args) {
      return new FunctionCall(kind, List.of(args), returnType);
    }

    @Override
    public void checkAgainst(Schema input) {
      for (ExprNode a : args) {
        a.checkAgainst(input);
      }
    }
  }

  /**
   * {@code CAST(input AS targetType)}.
   *
   * @param input the value to convert
   * @param targetType the type converted to
   */
  record Cast(ExprNode input, DataType targetType) implements ExprNode {
    public Cast {
      Checks.checkNotNull(input, "cast input");
      Checks.checkNotNull(targetType, "cast target type");
    }

    @Override
    public DataType returnType() {
      return targetType;
    }

    @Override
    public void checkAgainst(Schema in) {
      input.checkAgainst(in);
    }
  }

  /** Fails naming the expression unless it returns BOOLEAN (filters and join conditions). */
  static void checkPredicate(ExprNode e, String what) {
    Checks.checkArgument(
        e.returnType().id() == TypeId.BOOLEAN,
        "%s must return boolean, got %s from %s",
        what,
        e.returnType(),
        e);
  }
}
