package dev.tideway.frontend.batch;

import dev.tideway.common.plan.ColumnOrder;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Datums;
import dev.tideway.frontend.meta.PkRange;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.calcite.DataContext;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;

/**
 * Derives the {@link PkRange} a batch scan can be restricted to from the filters Calcite pushes
 * into it: the conjuncts {@code col op value} ({@code =, <, <=, >, >=}, {@code BETWEEN} and
 * single-interval {@code SEARCH}) on pk columns, where value is a literal or a bound parameter that
 * converts exactly to the column's type. Equalities on a pk prefix, then bounds on the next pk
 * column, make the range; everything else is left to the query's own filter (the range only ever
 * narrows the read, never the result).
 *
 * <p>Stateless; thread-safe.
 */
final class PkRanges {
  private static final RexBuilder REX = new RexBuilder(new JavaTypeFactoryImpl());

  /** What the conjuncts say about one column. */
  private static final class ColumnRange {
    Object equal;
    PkRange.Bound lower;
    PkRange.Bound upper;
  }

  private PkRanges() {}

  /**
   * @param fields for each scan field, the table column index
   * @param pk the table's pk
   * @param types the table's column types
   * @param params the bound parameters ({@code ?n}), or null when unknown (EXPLAIN)
   */
  static PkRange derive(
      int[] fields,
      List<ColumnOrder> pk,
      List<DataType> types,
      List<RexNode> filters,
      DataContext params) {
    Map<Integer, ColumnRange> byColumn = new HashMap<>();
    for (RexNode f : filters) {
      RexNode expanded = RexUtil.expandSearch(REX, null, f);
      for (RexNode c : RexUtil.flattenAnd(List.of(expanded))) {
        conjunct(c, fields, types, params, byColumn);
      }
    }
    List<Object> equal = new ArrayList<>();
    for (ColumnOrder o : pk) {
      ColumnRange r = byColumn.get(o.index());
      if (r == null) {
        break;
      }
      if (r.equal != null) {
        equal.add(r.equal);
        continue;
      }
      return new PkRange(equal, Optional.ofNullable(r.lower), Optional.ofNullable(r.upper));
    }
    return new PkRange(equal, Optional.empty(), Optional.empty());
  }

  /** {@code column kind value}: one comparison of a pk-typed column with an exact value. */
  private record Cmp(int column, SqlKind kind, Object value) {}

  /** The comparison {@code c} is, or null when it is none that a range can hold. */
  private static Cmp comparison(RexNode c, int[] fields, List<DataType> types, DataContext params) {
    if (!(c instanceof RexCall call) || call.getOperands().size() != 2) {
      return null;
    }
    SqlKind kind = call.getKind();
    RexNode a = call.getOperands().get(0);
    RexNode b = call.getOperands().get(1);
    if (!(a instanceof RexInputRef) && b instanceof RexInputRef) {
      RexNode t = a;
      a = b;
      b = t;
      kind = kind.reverse();
    }
    if (!(a instanceof RexInputRef ref) || ref.getIndex() >= fields.length) {
      return null;
    }
    if (kind != SqlKind.EQUALS
        && kind != SqlKind.GREATER_THAN
        && kind != SqlKind.GREATER_THAN_OR_EQUAL
        && kind != SqlKind.LESS_THAN
        && kind != SqlKind.LESS_THAN_OR_EQUAL) {
      return null;
    }
    int column = fields[ref.getIndex()];
    DataType type = types.get(column);
    if (type.id() == dev.tideway.common.types.TypeId.VARCHAR && kind != SqlKind.EQUALS) {
      return null; // Calcite orders strings by UTF-16, storage by UTF-8 bytes: only equality pushes
    }
    Object v = value(b, type, params);
    return v == null ? null : new Cmp(column, kind, v);
  }

  private static void conjunct(
      RexNode c,
      int[] fields,
      List<DataType> types,
      DataContext params,
      Map<Integer, ColumnRange> byColumn) {
    Cmp cmp = comparison(c, fields, types, params);
    if (cmp == null) {
      return;
    }
    DataType type = types.get(cmp.column());
    Object v = cmp.value();
    ColumnRange r = byColumn.computeIfAbsent(cmp.column(), k -> new ColumnRange());
    switch (cmp.kind()) {
      case EQUALS -> r.equal = r.equal == null ? v : r.equal;
      case GREATER_THAN -> r.lower = tighterLower(type, r.lower, new PkRange.Bound(v, false));
      case GREATER_THAN_OR_EQUAL ->
          r.lower = tighterLower(type, r.lower, new PkRange.Bound(v, true));
      case LESS_THAN -> r.upper = tighterUpper(type, r.upper, new PkRange.Bound(v, false));
      default -> r.upper = tighterUpper(type, r.upper, new PkRange.Bound(v, true));
    }
  }

  /**
   * Whether some conjunct is a comparison {@link #derive} could turn into a range once parameters
   * are bound: {@code pkColumn op literal-or-parameter} with a pushable type and operator.
   */
  static boolean mayRange(
      int[] fields, List<ColumnOrder> pk, List<DataType> types, List<RexNode> conjuncts) {
    for (RexNode f : conjuncts) {
      RexNode expanded = RexUtil.expandSearch(REX, null, f);
      for (RexNode c : RexUtil.flattenAnd(List.of(expanded))) {
        if (!(c instanceof RexCall call) || call.getOperands().size() != 2) {
          continue;
        }
        for (int side = 0; side < 2; side++) {
          RexNode a = call.getOperands().get(side);
          RexNode b = call.getOperands().get(1 - side);
          if (a instanceof RexInputRef ref
              && ref.getIndex() < fields.length
              && (b instanceof RexLiteral || b instanceof RexDynamicParam)
              && isPk(pk, fields[ref.getIndex()])
              && pushable(types.get(fields[ref.getIndex()]), call.getKind())) {
            return true;
          }
        }
      }
    }
    return false;
  }

  private static boolean isPk(List<ColumnOrder> pk, int column) {
    return pk.stream().anyMatch(o -> o.index() == column);
  }

  private static boolean pushable(DataType type, SqlKind kind) {
    boolean cmp =
        switch (kind) {
          case EQUALS, GREATER_THAN, GREATER_THAN_OR_EQUAL, LESS_THAN, LESS_THAN_OR_EQUAL -> true;
          default -> false;
        };
    return switch (type.id()) {
      case SMALLINT, INT, BIGINT -> cmp;
      case VARCHAR -> kind == SqlKind.EQUALS;
      default -> false;
    };
  }

  private static PkRange.Bound tighterLower(DataType t, PkRange.Bound old, PkRange.Bound b) {
    if (old == null) {
      return b;
    }
    int c = Datums.compare(t, b.value(), old.value());
    return c > 0 || (c == 0 && !b.inclusive()) ? b : old;
  }

  private static PkRange.Bound tighterUpper(DataType t, PkRange.Bound old, PkRange.Bound b) {
    if (old == null) {
      return b;
    }
    int c = Datums.compare(t, b.value(), old.value());
    return c < 0 || (c == 0 && !b.inclusive()) ? b : old;
  }

  /** The literal or parameter as an exact value of {@code type}, or null when it is not one. */
  private static Object value(RexNode n, DataType type, DataContext params) {
    Object raw;
    if (n instanceof RexLiteral lit) {
      raw = lit.getValue3();
    } else if (n instanceof RexDynamicParam p && params != null) {
      raw = params.get("?" + p.getIndex());
    } else {
      return null;
    }
    if (raw == null) {
      return null;
    }
    return switch (type.id()) {
      case SMALLINT -> integral(raw, Short.MIN_VALUE, Short.MAX_VALUE, l -> (short) l);
      case INT -> integral(raw, Integer.MIN_VALUE, Integer.MAX_VALUE, l -> (int) l);
      case BIGINT -> integral(raw, Long.MIN_VALUE, Long.MAX_VALUE, l -> l);
      case VARCHAR -> text(raw);
      default -> null;
    };
  }

  private static Object integral(
      Object raw, long min, long max, java.util.function.LongFunction<Object> as) {
    BigDecimal d;
    if (raw instanceof BigDecimal bd) {
      d = bd;
    } else if (raw instanceof Long || raw instanceof Integer || raw instanceof Short) {
      d = BigDecimal.valueOf(((Number) raw).longValue());
    } else {
      return null;
    }
    if (d.signum() != 0 && d.stripTrailingZeros().scale() > 0) {
      return null;
    }
    if (d.compareTo(BigDecimal.valueOf(min)) < 0 || d.compareTo(BigDecimal.valueOf(max)) > 0) {
      return null;
    }
    return as.apply(d.longValueExact());
  }

  private static Object text(Object raw) {
    String s =
        raw instanceof org.apache.calcite.util.NlsString n
            ? n.getValue()
            : raw instanceof String str ? str : null;
    // CHAR comparison may ignore trailing spaces; leave such values to the filter
    return s == null || s.endsWith(" ") ? null : s;
  }
}
