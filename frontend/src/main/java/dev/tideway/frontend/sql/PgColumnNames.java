package dev.tideway.frontend.sql;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlWith;

/**
 * PostgreSQL's names for result columns that Calcite calls {@code EXPR$n}: a function call is named
 * after the function ({@code count(*)} → {@code count}), a cast after its operand or else its type
 * ({@code 1::int} → {@code int4}), {@code CASE} → {@code case}, a boolean literal → {@code bool}, a
 * scalar subquery after its single column, anything else {@code ?column?} (PostgreSQL's {@code
 * FigureColname}). Explicit aliases and plain column references keep Calcite's name, which is
 * already PostgreSQL's.
 *
 * <p>Stateless; thread-safe.
 */
public final class PgColumnNames {
  /** PostgreSQL's name for an expression it cannot name otherwise. */
  public static final String UNNAMED = "?column?";

  private static final Map<String, String> TYPE_NAMES =
      Map.ofEntries(
          Map.entry("INTEGER", "int4"),
          Map.entry("INT", "int4"),
          Map.entry("BIGINT", "int8"),
          Map.entry("SMALLINT", "int2"),
          Map.entry("BOOLEAN", "bool"),
          Map.entry("REAL", "float4"),
          Map.entry("FLOAT", "float8"),
          Map.entry("DOUBLE", "float8"),
          Map.entry("DECIMAL", "numeric"),
          Map.entry("NUMERIC", "numeric"),
          Map.entry("VARCHAR", "varchar"),
          Map.entry("CHAR", "bpchar"),
          Map.entry("DATE", "date"),
          Map.entry("TIME", "time"),
          Map.entry("TIMESTAMP", "timestamp"));

  private PgColumnNames() {}

  /**
   * Renames the {@code EXPR$n} columns of the query {@code sql} (Calcite-ready text) to
   * PostgreSQL's names; text that does not parse keeps {@code calciteNames}.
   *
   * @param unique keep Calcite's name where PostgreSQL's would repeat another column's (a view's
   *     columns must be distinct; a result set's need not be)
   */
  public static List<String> rename(String sql, List<String> calciteNames, boolean unique) {
    if (calciteNames.stream().noneMatch(PgColumnNames::isGenerated)) {
      return calciteNames;
    }
    SqlNode parsed;
    try {
      parsed = StatementParser.calciteParse(sql);
    } catch (RuntimeException e) { // PgException included
      return calciteNames;
    }
    return rename(parsed, calciteNames, unique);
  }

  /** As {@link #rename(String, List, boolean)} for an already parsed query. */
  public static List<String> rename(SqlNode query, List<String> calciteNames, boolean unique) {
    SqlSelect select = topSelect(query);
    if (select == null) {
      return calciteNames;
    }
    List<SqlNode> items = select.getSelectList().getList();
    int n = calciteNames.size();
    int m = items.size();
    int firstStar = m;
    int lastStar = -1;
    for (int i = 0; i < m; i++) {
      if (items.get(i) instanceof SqlIdentifier id && id.isStar()) {
        firstStar = Math.min(firstStar, i);
        lastStar = i;
      }
    }
    List<String> out = new ArrayList<>(calciteNames);
    Set<String> used = new HashSet<>(calciteNames);
    for (int i = 0; i < m; i++) {
      int target = i < firstStar ? i : i > lastStar ? n - (m - i) : -1;
      if (target < 0 || target >= n || !isGenerated(out.get(target))) {
        continue;
      }
      String name = name(items.get(i));
      if (name != null && (!unique || used.add(name))) {
        out.set(target, name);
      }
    }
    return out;
  }

  private static boolean isGenerated(String name) {
    return name.startsWith("EXPR$");
  }

  private static SqlSelect topSelect(SqlNode n) {
    while (true) {
      if (n instanceof SqlSelect s) {
        return s;
      } else if (n instanceof SqlOrderBy o) {
        n = o.query;
      } else if (n instanceof SqlWith w) {
        n = w.body;
      } else if (n instanceof SqlBasicCall c
          && (c.getKind() == SqlKind.UNION
              || c.getKind() == SqlKind.EXCEPT
              || c.getKind() == SqlKind.INTERSECT)) {
        n = c.operand(0); // PostgreSQL names a set operation's columns after its first branch
      } else {
        return null;
      }
    }
  }

  /** PostgreSQL's name for a select item, or null when the item names itself (alias, column). */
  static String name(SqlNode item) {
    if (item instanceof SqlIdentifier || item.getKind() == SqlKind.AS) {
      return null;
    }
    return figure(item);
  }

  private static String figure(SqlNode e) {
    if (e instanceof SqlIdentifier id) {
      return id.isStar() ? UNNAMED : id.names.get(id.names.size() - 1);
    }
    if (e instanceof SqlLiteral lit) {
      return lit.getTypeName().getName().equals("BOOLEAN") ? "bool" : UNNAMED;
    }
    if (e instanceof SqlSelect s) {
      List<SqlNode> items = s.getSelectList().getList();
      if (items.size() != 1) {
        return UNNAMED;
      }
      SqlNode only = items.get(0);
      return only.getKind() == SqlKind.AS
          ? ((SqlIdentifier) ((SqlCall) only).operand(1)).getSimple()
          : figure(only);
    }
    if (e instanceof SqlNodeList) {
      return UNNAMED;
    }
    if (!(e instanceof SqlCall call)) {
      return UNNAMED;
    }
    return switch (call.getKind()) {
      case OVER, FILTER, WITHIN_GROUP -> figure(call.operand(0));
      case CAST -> castName(call);
      case CASE -> "case";
      case EXISTS -> "exists";
      case ROW -> "row";
      case SCALAR_QUERY -> figure(call.operand(0));
      default ->
          call.getOperator() instanceof SqlFunction f
              ? f.getName().toLowerCase(Locale.ROOT)
              : UNNAMED;
    };
  }

  private static String castName(SqlCall call) {
    String inner = figure(call.operand(0));
    if (!inner.equals(UNNAMED)) {
      return inner;
    }
    if (call.operandCount() > 1 && call.operand(1) instanceof SqlDataTypeSpec spec) {
      String t = spec.getTypeName().getSimple().toUpperCase(Locale.ROOT);
      return TYPE_NAMES.getOrDefault(t, t.toLowerCase(Locale.ROOT));
    }
    return UNNAMED;
  }
}
