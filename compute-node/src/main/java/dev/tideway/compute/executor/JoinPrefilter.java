package dev.tideway.compute.executor;

import dev.tideway.common.plan.ExprNode;
import dev.tideway.common.plan.FunctionKind;
import dev.tideway.common.row.Row;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Datums;
import dev.tideway.common.types.TypeId;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The conjuncts of a join condition that compare a left column with a right column ({@code AB.num
 * >= MB.maxn} in q5), checked on the two rows before a joined row is built. A pair that fails one
 * cannot satisfy the condition (a false or NULL conjunct makes the AND false or NULL), so {@link
 * HashJoinExecutor} skips it; a pair that passes is still checked against the whole condition. When
 * a change matches every row under a hot key, most pairs then cost a comparison instead of a joined
 * row in a chunk.
 *
 * <p>Only integer and temporal columns, whose Java values compare as SQL compares them. Immutable.
 */
final class JoinPrefilter {
  private static final Set<TypeId> TYPES =
      EnumSet.of(
          TypeId.SMALLINT,
          TypeId.INT,
          TypeId.BIGINT,
          TypeId.DATE,
          TypeId.TIME,
          TypeId.TIMESTAMP,
          TypeId.TIMESTAMPTZ);

  /** {@code left[leftColumn] kind right[rightColumn]}. */
  private record Comparison(FunctionKind kind, int leftColumn, int rightColumn, DataType type) {}

  private final Comparison[] comparisons;

  private JoinPrefilter(List<Comparison> comparisons) {
    this.comparisons = comparisons.toArray(new Comparison[0]);
  }

  /** The prefilter of {@code condition} over rows of {@code leftWidth} left columns, or null. */
  static JoinPrefilter of(Optional<ExprNode> condition, int leftWidth) {
    if (condition.isEmpty()) {
      return null;
    }
    List<Comparison> out = new ArrayList<>();
    collect(condition.get(), leftWidth, out);
    return out.isEmpty() ? null : new JoinPrefilter(out);
  }

  private static void collect(ExprNode e, int leftWidth, List<Comparison> out) {
    if (!(e instanceof ExprNode.FunctionCall f)) {
      return;
    }
    if (f.kind() == FunctionKind.AND) {
      f.args().forEach(a -> collect(a, leftWidth, out));
      return;
    }
    FunctionKind mirrored = mirror(f.kind());
    if (mirrored == null
        || f.args().size() != 2
        || !(f.args().get(0) instanceof ExprNode.InputRef a)
        || !(f.args().get(1) instanceof ExprNode.InputRef b)
        || !a.type().equals(b.type())
        || !TYPES.contains(a.type().id())) {
      return;
    }
    if (a.index() < leftWidth && b.index() >= leftWidth) {
      out.add(new Comparison(f.kind(), a.index(), b.index() - leftWidth, a.type()));
    } else if (b.index() < leftWidth && a.index() >= leftWidth) {
      out.add(new Comparison(mirrored, b.index(), a.index() - leftWidth, a.type()));
    }
  }

  /** The comparison with its operands swapped, or null for a kind that is not one. */
  private static FunctionKind mirror(FunctionKind k) {
    return switch (k) {
      case EQUAL, NOT_EQUAL -> k;
      case LESS_THAN -> FunctionKind.GREATER_THAN;
      case LESS_THAN_OR_EQUAL -> FunctionKind.GREATER_THAN_OR_EQUAL;
      case GREATER_THAN -> FunctionKind.LESS_THAN;
      case GREATER_THAN_OR_EQUAL -> FunctionKind.LESS_THAN_OR_EQUAL;
      default -> null;
    };
  }

  /**
   * The first conjunct that bounds a column of one side by a column of the other ({@code <, <=, >,
   * >=}), seen from the side {@code left} names: {@code this[column] kind other[otherColumn]}, or
   * null when there is none.
   */
  RangeBound rangeBound(boolean left) {
    for (Comparison c : comparisons) {
      if (c.kind() == FunctionKind.EQUAL || c.kind() == FunctionKind.NOT_EQUAL) {
        continue;
      }
      return left
          ? new RangeBound(c.leftColumn(), c.rightColumn(), c.kind(), c.type())
          : new RangeBound(c.rightColumn(), c.leftColumn(), mirror(c.kind()), c.type());
    }
    return null;
  }

  /**
   * {@code this[column] kind other[otherColumn]}: a side's rows that may match a row of the other
   * side are those whose {@code column} lies on one side of the other row's value; both columns are
   * of {@code type}. Immutable.
   */
  record RangeBound(int column, int otherColumn, FunctionKind kind, DataType type) {
    /** Whether the matching rows lie above the bound ({@code >, >=}); else below it. */
    boolean above() {
      return kind == FunctionKind.GREATER_THAN || kind == FunctionKind.GREATER_THAN_OR_EQUAL;
    }

    /** Whether {@code value} lies below {@code bound} (neither NULL). */
    boolean below(Object value, Object bound) {
      return Datums.compare(type, value, bound) < 0;
    }
  }

  /** False when the pair cannot satisfy the condition; true when it may. */
  boolean mayPass(Row left, Row right) {
    for (Comparison c : comparisons) {
      Object a = left.get(c.leftColumn());
      Object b = right.get(c.rightColumn());
      if (a == null || b == null) {
        return false;
      }
      int cmp = Datums.compare(c.type(), a, b);
      boolean ok =
          switch (c.kind()) {
            case EQUAL -> cmp == 0;
            case NOT_EQUAL -> cmp != 0;
            case LESS_THAN -> cmp < 0;
            case LESS_THAN_OR_EQUAL -> cmp <= 0;
            case GREATER_THAN -> cmp > 0;
            default -> cmp >= 0;
          };
      if (!ok) {
        return false;
      }
    }
    return true;
  }
}
