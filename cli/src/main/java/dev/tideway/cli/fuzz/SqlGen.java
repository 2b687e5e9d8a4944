package dev.tideway.cli.fuzz;

import dev.tideway.common.random.RandomSource;
import java.util.ArrayList;
import java.util.List;

/**
 * Random SQL from what Tideway maintains incrementally: two tables with every numeric type, text
 * and booleans; views that project, filter, group (count, sum, min, max, count DISTINCT) and
 * inner-join them, with arithmetic, CASE, COALESCE and casts; and DML that inserts, updates and
 * deletes rows with NULLs and edge values (0, -1, the integer limits). Every choice comes from one
 * seeded {@link RandomSource}, so a seed replays the same statements.
 */
final class SqlGen {
  /** A column of the fuzzed tables. */
  record Column(String name, String type) {
    boolean integral() {
      return type.equals("INT") || type.equals("BIGINT");
    }

    boolean numeric() {
      return integral() || type.equals("DOUBLE PRECISION") || type.equals("NUMERIC");
    }
  }

  static final List<Column> COLUMNS =
      List.of(
          new Column("a", "INT"),
          new Column("b", "BIGINT"),
          new Column("c", "DOUBLE PRECISION"),
          new Column("d", "NUMERIC"),
          new Column("s", "VARCHAR"),
          new Column("f", "BOOLEAN"));

  static final List<String> TABLES = List.of("fz_t1", "fz_t2");

  private static final String[] INTS = {
    "0", "1", "-1", "2", "3", "7", "10", "-3", "100", "2147483647", "-2147483647", "NULL"
  };
  private static final String[] BIGINTS = {
    "0", "1", "-1", "5", "-8", "1000000", "9223372036854775807", "-9223372036854775807", "NULL"
  };
  private static final String[] DOUBLES = {
    "0", "0.5", "-2.5", "1.25", "1e10", "-0.001", "3", "NULL"
  };
  private static final String[] NUMERICS = {"0", "0.5", "-2.5", "1.125", "10", "-7", "NULL"};
  private static final String[] STRINGS = {"'x'", "'y'", "''", "'abc'", "'X'", "NULL"};
  private static final String[] BOOLS = {"TRUE", "FALSE", "NULL"};

  private final RandomSource r;
  private int nextKey = 1;

  SqlGen(long seed) {
    this.r = RandomSource.seeded(seed);
  }

  RandomSource random() {
    return r;
  }

  static String createTable(String t) {
    StringBuilder b = new StringBuilder("CREATE TABLE " + t + " (k INT PRIMARY KEY");
    for (Column c : COLUMNS) {
      b.append(", ").append(c.name()).append(' ').append(c.type());
    }
    return b.append(')').toString();
  }

  private String value(Column c) {
    String[] pool =
        switch (c.type()) {
          case "INT" -> INTS;
          case "BIGINT" -> BIGINTS;
          case "DOUBLE PRECISION" -> DOUBLES;
          case "NUMERIC" -> NUMERICS;
          case "VARCHAR" -> STRINGS;
          default -> BOOLS;
        };
    if (c.integral() && r.nextInt(3) == 0) {
      return Integer.toString(r.nextInt(21) - 10);
    }
    return pool[r.nextInt(pool.length)];
  }

  /** An INSERT of 1..20 rows with fresh keys. */
  String insert() {
    String t = TABLES.get(r.nextInt(TABLES.size()));
    int rows = 1 + r.nextInt(20);
    StringBuilder b = new StringBuilder("INSERT INTO " + t + " VALUES ");
    for (int i = 0; i < rows; i++) {
      b.append(i > 0 ? ", " : "").append('(').append(nextKey++);
      for (Column c : COLUMNS) {
        b.append(", ").append(value(c));
      }
      b.append(')');
    }
    return b.toString();
  }

  /** An UPDATE of one column of the rows a predicate picks. */
  String update() {
    String t = TABLES.get(r.nextInt(TABLES.size()));
    Column c = COLUMNS.get(r.nextInt(COLUMNS.size()));
    return "UPDATE " + t + " SET " + c.name() + " = " + value(c) + " WHERE " + dmlPredicate();
  }

  String delete() {
    return "DELETE FROM " + TABLES.get(r.nextInt(TABLES.size())) + " WHERE " + dmlPredicate();
  }

  private String dmlPredicate() {
    return switch (r.nextInt(3)) {
      case 0 -> "k % " + (2 + r.nextInt(5)) + " = " + r.nextInt(2);
      case 1 -> "a " + cmp() + " " + r.nextInt(10);
      default -> "k = " + (1 + r.nextInt(Math.max(1, nextKey)));
    };
  }

  private String cmp() {
    String[] ops = {"=", "<>", "<", "<=", ">", ">="};
    return ops[r.nextInt(ops.length)];
  }

  /** A view's query: a projection, a grouped aggregate, or a join, optionally filtered. */
  String query() {
    return switch (r.nextInt(4)) {
      case 0 -> projection();
      case 1, 2 -> aggregate();
      default -> join();
    };
  }

  private String projection() {
    String t = TABLES.get(r.nextInt(TABLES.size()));
    List<String> items = new ArrayList<>(List.of("k"));
    int n = 1 + r.nextInt(4);
    for (int i = 0; i < n; i++) {
      items.add(scalar("") + " AS e" + i);
    }
    return "SELECT " + String.join(", ", items) + " FROM " + t + where("");
  }

  private String aggregate() {
    String t = TABLES.get(r.nextInt(TABLES.size()));
    List<String> keys = new ArrayList<>();
    int nk = r.nextInt(3);
    for (int i = 0; i < nk; i++) {
      keys.add(r.nextBoolean() ? column(r.nextBoolean()) : scalar(""));
    }
    List<String> items = new ArrayList<>();
    for (int i = 0; i < keys.size(); i++) {
      items.add(keys.get(i) + " AS g" + i);
    }
    int na = 1 + r.nextInt(3);
    for (int i = 0; i < na; i++) {
      items.add(aggCall() + " AS v" + i);
    }
    String q = "SELECT " + String.join(", ", items) + " FROM " + t + where("");
    return keys.isEmpty() ? q : q + " GROUP BY " + String.join(", ", keys);
  }

  private String aggCall() {
    Column c = numericColumn();
    return switch (r.nextInt(6)) {
      case 0 -> "count(*)";
      case 1 -> "count(" + column(false) + ")";
      // a float sum maintained incrementally drifts from one computed anew ((x + 1e10) - 1e10 is
      // not x), in every streaming system: sums are over exact columns
      case 2 -> "sum(" + (c.type().equals("DOUBLE PRECISION") ? "d" : c.name()) + ")";
      case 3 -> "min(" + column(false) + ")";
      case 4 -> "max(" + column(false) + ")";
      default -> "count(DISTINCT " + column(false) + ")";
    };
  }

  private String join() {
    String on = r.nextBoolean() ? "l.a = r.a" : "l.s = r.s";
    if (r.nextInt(3) == 0) {
      on += " AND l." + numericColumn().name() + " " + cmp() + " r." + numericColumn().name();
    }
    String select =
        "SELECT l.k AS lk, r.k AS rk, " + scalar("l.") + " AS x, " + scalar("r.") + " AS y";
    return select + " FROM fz_t1 AS l JOIN fz_t2 AS r ON " + on + where("l.");
  }

  private String where(String prefix) {
    return r.nextInt(3) == 0 ? "" : " WHERE " + predicate(prefix, 2);
  }

  private String predicate(String p, int depth) {
    if (depth > 0 && r.nextInt(3) == 0) {
      String op = r.nextBoolean() ? " AND " : " OR ";
      return "(" + predicate(p, depth - 1) + op + predicate(p, depth - 1) + ")";
    }
    return switch (r.nextInt(5)) {
      case 0 -> p + column(false) + " IS " + (r.nextBoolean() ? "" : "NOT ") + "NULL";
      case 1 -> "NOT (" + p + "f)";
      case 2 -> p + "s " + cmp() + " " + STRINGS[r.nextInt(STRINGS.length - 1)];
      default -> arith(p, 1) + " " + cmp() + " " + value(numericColumn());
    };
  }

  /** A scalar expression over the columns (prefixed for a join side). */
  private String scalar(String p) {
    return switch (r.nextInt(6)) {
      case 0 ->
          "CASE WHEN " + predicate(p, 1) + " THEN " + arith(p, 1) + " ELSE " + arith(p, 0) + " END";
      case 1 -> "COALESCE(" + p + "a, " + r.nextInt(5) + ")";
      case 2 -> cast(p);
      default -> arith(p, 2);
    };
  }

  private String cast(String p) {
    Column c = numericColumn();
    String[] to = {"INT", "BIGINT", "NUMERIC", "DOUBLE PRECISION", "VARCHAR"};
    return "CAST(" + p + c.name() + " AS " + to[r.nextInt(to.length)] + ")";
  }

  private String arith(String p, int depth) {
    if (depth == 0 || r.nextInt(3) == 0) {
      return r.nextInt(4) == 0
          ? value(numericColumn()).replace("NULL", "1")
          : p + numericColumn().name();
    }
    String[] ops = {"+", "-", "*", "/", "%"};
    return "("
        + arith(p, depth - 1)
        + " "
        + ops[r.nextInt(ops.length)]
        + " "
        + arith(p, depth - 1)
        + ")";
  }

  private Column numericColumn() {
    while (true) {
      Column c = COLUMNS.get(r.nextInt(COLUMNS.size()));
      if (c.numeric()) {
        return c;
      }
    }
  }

  private String column(boolean numericOnly) {
    return numericOnly ? numericColumn().name() : COLUMNS.get(r.nextInt(COLUMNS.size())).name();
  }
}
