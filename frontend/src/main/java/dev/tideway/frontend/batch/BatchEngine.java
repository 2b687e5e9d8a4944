package dev.tideway.frontend.batch;

import dev.tideway.common.types.DataType;
import dev.tideway.frontend.meta.PkRange;
import dev.tideway.frontend.pgwire.PgException;
import dev.tideway.frontend.pgwire.SqlState;
import dev.tideway.frontend.sql.PgColumnNames;
import dev.tideway.frontend.sql.PgParser;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.runtime.Hook;
import org.apache.calcite.schema.Function;
import org.apache.calcite.schema.Schema;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.tools.Program;
import org.apache.calcite.util.Holder;

/**
 * One session's batch query engine: a Calcite JDBC connection (enumerable convention) with
 * PostgreSQL-like parsing ({@link PgParser}: Tideway's grammar, lower-casing unquoted names,
 * case-sensitive) and {@link TwTypeSystem}. Schemas and functions are registered by the owner.
 *
 * <p>Thread confinement: the session's connection thread; {@link #cancel()} from any thread.
 */
public final class BatchEngine implements AutoCloseable {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(BatchEngine.class);

  /** A result column. */
  public record Column(String name, DataType type) {}

  /** A described query: result columns and one type per {@code ?}. */
  public record Described(List<Column> columns, List<DataType> paramTypes) {}

  /** Rows of a query. */
  public record Result(List<Column> columns, List<Object[]> rows) {}

  static {
    // cache Janino-compiled plans across statements of the same shape (off by default in Calcite)
    if (System.getProperty("calcite.bindable.cache.maxSize") == null) {
      System.setProperty("calcite.bindable.cache.maxSize", "500");
    }
  }

  private static final int STATEMENT_CACHE = 64;

  private final CalciteConnection conn;
  private final java.util.function.Supplier<Object> catalogVersion;
  private final java.util.LinkedHashMap<String, PreparedStatement> statements =
      new java.util.LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, PreparedStatement> e) {
          if (size() > STATEMENT_CACHE) {
            closeQuietly(e.getValue());
            return true;
          }
          return false;
        }
      };
  private volatile PreparedStatement running;

  /**
   * @param catalogVersion changes whenever the catalog does; prepared statements are cached per
   *     (SQL, version), since Calcite binds table objects at prepare time
   */
  public BatchEngine(java.util.function.Supplier<Object> catalogVersion) {
    this.catalogVersion = catalogVersion;
    Properties p = new Properties();
    p.setProperty("parserFactory", PgParser.class.getName() + "#FACTORY");
    p.setProperty("quoting", "DOUBLE_QUOTE");
    p.setProperty("unquotedCasing", "TO_LOWER");
    p.setProperty("quotedCasing", "UNCHANGED");
    p.setProperty("caseSensitive", "true");
    p.setProperty("conformance", "LENIENT");
    p.setProperty("fun", "standard,postgresql");
    p.setProperty("typeSystem", TwTypeSystem.class.getName() + "#INSTANCE");
    p.setProperty("defaultNullCollation", "HIGH");
    p.setProperty("timeZone", "UTC");
    try {
      Connection c = DriverManager.getConnection("jdbc:calcite:", p);
      conn = c.unwrap(CalciteConnection.class);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot open Calcite connection", e);
    }
  }

  /** Registers a schema, with table-name caching off (tables come and go). */
  public SchemaPlus addSchema(String name, Schema schema) {
    SchemaPlus s = conn.getRootSchema().add(name, schema);
    CalciteSchema.from(s).getTableNames();
    if (s.isCacheEnabled()) {
      s.setCacheEnabled(false);
    }
    return s;
  }

  /** Registers a function in the root schema (callable unqualified) and in {@code schema}. */
  public void addFunction(String name, Function f, String... schemas) {
    conn.getRootSchema().add(name, f);
    for (String s : schemas) {
      SchemaPlus sp = conn.getRootSchema().getSubSchema(s);
      if (sp != null) {
        sp.add(name, f);
      }
    }
  }

  public void setDefaultSchema(String name) {
    try {
      conn.setSchema(name);
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  private PreparedStatement prepared(String sql) throws SQLException {
    String key = catalogVersion.get() + "\u0000" + sql;
    PreparedStatement ps = statements.get(key);
    if (ps == null) {
      try (Hook.Closeable rule = PkScan.register();
          Hook.Closeable casts = Hook.PROGRAM.addThread(PgCasts::use);
          var coercion =
              org.apache.calcite.sql.type.SqlTypeCoercionRule.THREAD_PROVIDERS.push(
                  PgCasts.COERCION)) {
        ps = conn.prepareStatement(sql);
      }
      statements.put(key, ps);
    }
    return ps;
  }

  private static void closeQuietly(PreparedStatement ps) {
    try {
      ps.close();
    } catch (SQLException ignored) {
      // dropping it anyway
    }
  }

  /** Validates and describes a query without running it. */
  public Described describe(String sql) {
    try {
      PreparedStatement ps = prepared(sql);
      return new Described(columns(sql, ps.getMetaData()), params(ps.getParameterMetaData()));
    } catch (SQLException | RuntimeException | LinkageError e) {
      // (Calcite evaluates constant expressions in a generated class's static initializer)
      throw translate(e, sql);
    }
  }

  /** Runs a query with its parameters (one per {@code ?}, Tideway values). */
  public Result query(String sql, List<Object> params) {
    List<Object[]> rows = new ArrayList<>();
    List<Column> cols = stream(sql, params, c -> rows::add);
    return new Result(cols, rows);
  }

  /**
   * Runs a query and hands its rows one at a time, as they are computed, to the consumer {@code
   * open} returns for the result columns; nothing of the result is held here, so a query of any
   * size streams through. An exception thrown by the consumer ends the query and propagates
   * (translated when it is not already a {@link PgException}).
   *
   * @return the result columns
   */
  public List<Column> stream(
      String sql,
      List<Object> params,
      java.util.function.Function<List<Column>, Consumer<Object[]>> open) {
    try {
      PreparedStatement ps = prepared(sql);
      ps.clearParameters();
      ParameterMetaData md = params.isEmpty() ? null : ps.getParameterMetaData();
      for (int i = 0; i < params.size(); i++) {
        bind(ps, i + 1, CalciteValues.asDeclared(params.get(i), md.getParameterType(i + 1)));
      }
      running = ps;
      try (ResultSet rs = ps.executeQuery()) {
        List<Column> cols = columns(sql, rs.getMetaData());
        Consumer<Object[]> sink = open.apply(cols);
        while (rs.next()) {
          Object[] row = new Object[cols.size()];
          for (int i = 0; i < row.length; i++) {
            row[i] = CalciteValues.read(rs, i + 1, cols.get(i).type());
          }
          sink.accept(row);
        }
        return cols;
      } finally {
        running = null;
      }
    } catch (SQLException | RuntimeException | LinkageError e) {
      // (Calcite evaluates constant expressions in a generated class's static initializer)
      throw translate(e, sql);
    }
  }

  /**
   * EXPLAIN of a query: Calcite's physical plan, then one line per scan of a stored table saying
   * what it reads ({@code Scan t: pk range k >= 10 AND k <= 20}, {@code point lookup}, {@code full
   * scan}). The plan is captured from the optimizer, so the lines describe the scans that run.
   */
  public List<String> explain(String sql) {
    List<RelNode> plans = new ArrayList<>();
    Consumer<Holder<Program>> capture =
        h ->
            h.set(
                (planner, rel, traits, materializations, lattices) -> {
                  RelNode out =
                      PgCasts.program().run(planner, rel, traits, materializations, lattices);
                  plans.add(out);
                  return out;
                });
    List<String> lines = new ArrayList<>();
    try (Hook.Closeable h = Hook.PROGRAM.addThread(capture);
        Hook.Closeable rule = PkScan.register();
        PreparedStatement ps = conn.prepareStatement("EXPLAIN PLAN FOR " + sql);
        ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        lines.addAll(List.of(rs.getString(1).split("\n")));
      }
    } catch (SQLException | RuntimeException | LinkageError e) {
      // (Calcite evaluates constant expressions in a generated class's static initializer)
      throw translate(e, sql);
    }
    for (RelNode plan : plans) {
      scans(plan, lines);
    }
    return lines;
  }

  private static void scans(RelNode rel, List<String> out) {
    if (rel instanceof TableScan scan) {
      StoredTable t = scan.getTable().unwrap(StoredTable.class);
      if (t != null) {
        PkRange range = rel instanceof PkScan p ? p.explainRange() : PkRange.ALL;
        String what =
            range.isAll()
                ? "full scan"
                : (range.isPoint(t.pkNames().size()) ? "point lookup " : "pk range ")
                    + range.describe(t.pkNames());
        out.add("Scan " + t.relation().name() + ": " + what);
      }
    }
    for (RelNode in : rel.getInputs()) {
      scans(in, out);
    }
  }

  /** Cancels the running query, if any. */
  public void cancel() {
    PreparedStatement ps = running;
    if (ps != null) {
      try {
        ps.cancel();
      } catch (SQLException ignored) {
        // finished meanwhile
      }
    }
  }

  private static void bind(PreparedStatement ps, int i, Object v) throws SQLException {
    if (v instanceof LocalDateTime ldt) {
      ps.setTimestamp(i, Timestamp.from(ldt.toInstant(ZoneOffset.UTC)), CalciteValues.UTC);
    } else if (v instanceof Instant inst) {
      ps.setTimestamp(i, Timestamp.from(inst), CalciteValues.UTC);
    } else if (v instanceof LocalDate d) {
      ps.setDate(i, new java.sql.Date(d.toEpochDay() * 86_400_000L), CalciteValues.UTC);
    } else {
      ps.setObject(i, v);
    }
  }

  /** The result columns, named as PostgreSQL names them ({@link PgColumnNames}). */
  private static List<Column> columns(String sql, ResultSetMetaData md) throws SQLException {
    List<String> names = new ArrayList<>();
    for (int i = 1; i <= md.getColumnCount(); i++) {
      names.add(md.getColumnLabel(i));
    }
    names = PgColumnNames.rename(sql, names, false);
    List<Column> out = new ArrayList<>();
    for (int i = 1; i <= md.getColumnCount(); i++) {
      out.add(new Column(names.get(i - 1), CalciteValues.columnType(md, i)));
    }
    return out;
  }

  private static List<DataType> params(ParameterMetaData md) throws SQLException {
    List<DataType> out = new ArrayList<>();
    for (int i = 1; i <= md.getParameterCount(); i++) {
      out.add(
          switch (md.getParameterType(i)) {
            case java.sql.Types.BOOLEAN -> DataType.BOOLEAN;
            case java.sql.Types.SMALLINT, java.sql.Types.TINYINT -> DataType.SMALLINT;
            case java.sql.Types.INTEGER -> DataType.INT;
            case java.sql.Types.BIGINT -> DataType.BIGINT;
            case java.sql.Types.REAL -> DataType.REAL;
            case java.sql.Types.DOUBLE, java.sql.Types.FLOAT -> DataType.DOUBLE;
            case java.sql.Types.DECIMAL, java.sql.Types.NUMERIC -> DataType.DECIMAL;
            case java.sql.Types.DATE -> DataType.DATE;
            case java.sql.Types.TIME -> DataType.TIME;
            case java.sql.Types.TIMESTAMP -> DataType.TIMESTAMP;
            default -> DataType.VARCHAR;
          });
    }
    return out;
  }

  private static final Pattern WITHIN_GROUP =
      Pattern.compile("(\\w+)\\s*\\([^)]*\\)\\s*WITHIN\\s+GROUP", Pattern.CASE_INSENSITIVE);
  private static final Pattern NUMBER_INPUT = Pattern.compile("For input string: \"([^\"]*)\"");
  private static final Pattern POS = Pattern.compile("From line (\\d+), column (\\d+)");
  private static final Pattern OBJECT = Pattern.compile("Object '([^']+)' not found");
  private static final Pattern COLUMN = Pattern.compile("Column '([^']+)' not found");
  private static final Pattern FUNCTION =
      Pattern.compile("No match found for function signature ([^\\s(]+)\\(([^)]*)\\)");
  private static final Pattern APPLY =
      Pattern.compile("Cannot apply '([^']+)' to arguments of type '([^']*)'");

  /** Maps a Calcite failure to a PostgreSQL error with SQLSTATE and position. */
  /** What each generated class whose static initializer failed answered, by class name. */
  private static final java.util.Map<String, PgException> FAILED_INITIALIZERS =
      new java.util.concurrent.ConcurrentHashMap<>();

  private static String initializedClass(String message) {
    String m = String.valueOf(message);
    return m.substring(m.lastIndexOf(' ') + 1);
  }

  public static PgException translate(Throwable e, String sql) {
    if (e instanceof PgException pe) {
      return pe;
    }
    if (e instanceof NoClassDefFoundError n
        && String.valueOf(n.getMessage()).contains("initialize")) {
      // Calcite evaluates a query's constant expressions in a generated class's static
      // initializer and caches the class: once that failed (ExceptionInInitializerError, answered
      // with its cause), the same plan finds the class unusable. Say what the first run said.
      PgException first = FAILED_INITIALIZERS.get(initializedClass(n.getMessage()));
      return first != null
          ? first
          : PgException.error(
              SqlState.DATA_EXCEPTION, "a constant expression of this query cannot be evaluated");
    }
    if (e instanceof ExceptionInInitializerError init && init.getCause() != null) {
      PgException out = translate(init.getCause(), sql);
      for (StackTraceElement f : init.getCause().getStackTrace()) {
        if (f.getMethodName().equals("<clinit>")) {
          if (FAILED_INITIALIZERS.size() > 1000) {
            FAILED_INITIALIZERS.clear();
          }
          FAILED_INITIALIZERS.put(f.getClassName(), out);
          break;
        }
      }
      return out;
    }
    StringBuilder all = new StringBuilder();
    for (Throwable c = e; c != null; c = c.getCause()) {
      if (c instanceof PgException pe) {
        return pe;
      }
      if (c instanceof ArithmeticException && c.getMessage() == null) {
        // HotSpot throws a preallocated, message-less exception for an integer division by zero
        // once that path is hot (OmitStackTraceInFastThrow): it is the only implicit one
        return PgException.error(SqlState.DIVISION_BY_ZERO, "division by zero");
      }
      if (c instanceof org.apache.calcite.plan.RelOptPlanner.CannotPlanException) {
        // the planner has no operator for part of the query; its message is a plan dump
        Matcher w = WITHIN_GROUP.matcher(sql);
        return PgException.unsupported(
            w.find()
                ? w.group(1).toLowerCase(java.util.Locale.ROOT)
                    + "(...) WITHIN GROUP in a batch query"
                : "this query shape in a batch query (no operator implements it)");
      }
      if (c instanceof NumberFormatException && !NUMBER_INPUT.matcher(c.getMessage() + "").find()) {
        return PgException.error(
            SqlState.INVALID_TEXT_REPRESENTATION,
            "invalid input syntax for type numeric: " + c.getMessage());
      }
      all.append(c.getMessage()).append('\n');
    }
    String m = all.toString();
    PgException out;
    Matcher x;
    if ((x = OBJECT.matcher(m)).find()) {
      out =
          PgException.error(
              SqlState.UNDEFINED_TABLE, "relation \"" + x.group(1) + "\" does not exist");
    } else if ((x = COLUMN.matcher(m)).find()) {
      out =
          PgException.error(
              SqlState.UNDEFINED_COLUMN, "column \"" + x.group(1) + "\" does not exist");
    } else if ((x = FUNCTION.matcher(m)).find()) {
      out =
          PgException.error(
              SqlState.UNDEFINED_FUNCTION,
              "function "
                  + x.group(1).toLowerCase()
                  + "("
                  + x.group(2).toLowerCase()
                  + ") does not exist");
    } else if ((x = APPLY.matcher(m)).find()) {
      out =
          PgException.error(
              SqlState.UNDEFINED_FUNCTION, "operator does not exist: " + x.group(2).toLowerCase());
    } else if ((x = NUMBER_INPUT.matcher(m)).find()) {
      out =
          PgException.error(
              SqlState.INVALID_TEXT_REPRESENTATION,
              "invalid input syntax for type numeric: \"" + x.group(1) + "\"");
    } else if (m.contains("/ by zero")
        || m.contains("Division by zero")
        || m.contains("Division undefined")
        || m.contains("BigInteger divide by zero")) {
      out = PgException.error(SqlState.DIVISION_BY_ZERO, "division by zero");
    } else if (m.contains("overflow")) {
      out = PgException.error(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "value out of range: overflow");
    } else if (m.contains("out of range") || m.contains("cannot be represented as a DECIMAL")) {
      out = PgException.error(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, firstLine(m));
    } else if (m.contains("Encountered") || m.contains("parse failed")) {
      out = PgException.error(SqlState.SYNTAX_ERROR, "syntax error: " + firstLine(m));
    } else if (m.contains("cancel")) {
      out = PgException.error(SqlState.QUERY_CANCELED, "canceling statement due to user request");
    } else if (m.contains("Unknown identifier") || m.contains("not found")) {
      out = PgException.error(SqlState.UNDEFINED_OBJECT, firstLine(m));
    } else {
      // not a failure the user's SQL explains: keep the stack for whoever reads the server log
      LOG.warn("batch query failed unexpectedly: {}", sql, e);
      Throwable root = e;
      while (root.getCause() != null) {
        root = root.getCause();
      }
      String first = firstLine(m);
      boolean unexplained = root.getMessage() == null || first.isBlank() || first.equals("null");
      out = PgException.error("42000", unexplained ? "internal error: " + root : first);
    }
    Matcher p = POS.matcher(m);
    if (p.find()) {
      int line = Integer.parseInt(p.group(1));
      int col = Integer.parseInt(p.group(2));
      int off = 0;
      for (int l = 1; l < line && off >= 0; l++) {
        off = sql.indexOf('\n', off) + 1;
      }
      out = out.withPosition(Math.max(0, off) + col);
    }
    return out;
  }

  private static String firstLine(String m) {
    String s = m.strip().lines().filter(l -> !l.isBlank()).reduce((a, b) -> b).orElse("error");
    s = s.replaceFirst("^.*?Exception: ", "");
    return s.replaceFirst("^From line \\d+, column \\d+ to line \\d+, column \\d+: ", "");
  }

  @Override
  public void close() {
    try {
      conn.close();
    } catch (SQLException ignored) {
      // closing anyway
    }
  }
}
