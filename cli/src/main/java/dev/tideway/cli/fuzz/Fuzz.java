package dev.tideway.cli.fuzz;

import dev.tideway.cli.local.Probes;
import dev.tideway.common.time.Clock;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.math.MathContext;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A differential fuzzer: random views and random DML through the PostgreSQL protocol, and after
 * every step each view read back and compared with its query run as a batch query over the same
 * committed data. A difference, a recovery of the cluster, or a statement that hangs ends the run
 * with the seed and the statements that led there. A query the planner refuses (0A000) or whose
 * batch run raises an evaluation error (22xxx: the view holds NULL there) is counted, not judged.
 */
public final class Fuzz {
  /** How a run is set up. */
  public record Options(long seed, Duration duration, int maxSteps, int maxViews) {}

  /** The figures of a run; {@link #clean()} when nothing was wrong. */
  public record Report(
      long seed,
      int steps,
      int queriesTried,
      int queriesRefused,
      int viewsCreated,
      int dmlStatements,
      int comparisons,
      int skippedEvaluationErrors,
      List<String> differences,
      double recoveries) {
    public boolean clean() {
      return differences.isEmpty() && recoveries == 0;
    }

    public void print(PrintStream out) {
      out.println("seed=" + seed);
      out.println("steps=" + steps);
      out.println("queries_tried=" + queriesTried);
      out.println("queries_refused=" + queriesRefused);
      out.println("views_created=" + viewsCreated);
      out.println("dml_statements=" + dmlStatements);
      out.println("comparisons=" + comparisons);
      out.println("skipped_evaluation_errors=" + skippedEvaluationErrors);
      out.println("recoveries=" + (long) recoveries);
      out.println("differences=" + differences.size());
      differences.forEach(d -> out.println("difference: " + d));
      out.println("result=" + (clean() ? "clean" : "FAILED"));
    }
  }

  private final Options options;
  private final Connection conn;
  private final int metaHttpPort;
  private final PrintStream log;
  private final Clock clock;
  private final SqlGen gen;
  private final Map<String, String> views = new LinkedHashMap<>();
  private final Deque<String> history = new ArrayDeque<>();
  private final List<String> differences = new ArrayList<>();
  private int steps;
  private int tried;
  private int refused;
  private int created;
  private int dml;
  private int comparisons;
  private int skipped;
  private int nextView;

  public Fuzz(Options options, Connection conn, int metaHttpPort, PrintStream log, Clock clock) {
    this.clock = clock;
    this.options = options;
    this.conn = conn;
    this.metaHttpPort = metaHttpPort;
    this.log = log;
    this.gen = new SqlGen(options.seed());
  }

  public Report run() throws Exception {
    double before = recoveries();
    try (Statement st = conn.createStatement()) {
      st.setQueryTimeout(120);
      for (String t : SqlGen.TABLES) {
        exec(st, "DROP TABLE IF EXISTS " + t + " CASCADE");
        exec(st, SqlGen.createTable(t));
      }
      for (int i = 0; i < 4; i++) {
        dml(st, gen.insert());
      }
      long deadline = clock.nanoTime() + options.duration().toNanos();
      while (steps < options.maxSteps() && clock.nanoTime() < deadline && differences.isEmpty()) {
        try {
          step(st);
        } catch (SQLException e) {
          differences.add(
              "unexpected error "
                  + e.getSQLState()
                  + ": "
                  + e.getMessage()
                  + "\n  after:\n"
                  + recent());
        }
        steps++;
        if (recoveries() > before) {
          differences.add(
              "a recovery started at step " + steps + "; last statements:\n" + recent());
        }
      }
      try {
        for (String t : SqlGen.TABLES) {
          exec(st, "DROP TABLE IF EXISTS " + t + " CASCADE");
        }
      } catch (SQLException e) {
        if (differences.isEmpty()) {
          differences.add("cleaning up failed: " + e.getMessage());
        }
      }
    }
    return new Report(
        options.seed(),
        steps,
        tried,
        refused,
        created,
        dml,
        comparisons,
        skipped,
        List.copyOf(differences),
        recoveries() - before);
  }

  private void step(Statement st) throws SQLException {
    int roll = gen.random().nextInt(10);
    if (views.size() < options.maxViews() && (views.isEmpty() || roll < 3)) {
      createView(st);
    } else if (roll == 3 && views.size() > 1) {
      String v = views.keySet().iterator().next();
      exec(st, "DROP MATERIALIZED VIEW " + v);
      views.remove(v);
    } else {
      String sql = roll < 7 ? gen.insert() : roll < 9 ? gen.update() : gen.delete();
      dml(st, sql);
    }
    exec(st, "FLUSH");
    for (Map.Entry<String, String> v : views.entrySet()) {
      compare(st, v.getKey(), v.getValue());
    }
  }

  private void createView(Statement st) throws SQLException {
    String q = gen.query();
    tried++;
    String name = "fz_v" + nextView++;
    try {
      exec(st, "CREATE MATERIALIZED VIEW " + name + " AS " + q);
      views.put(name, q);
      created++;
    } catch (SQLException e) {
      if (!"0A000".equals(e.getSQLState()) && !e.getSQLState().startsWith("42")) {
        throw e;
      }
      refused++;
    }
  }

  private void dml(Statement st, String sql) throws SQLException {
    try {
      exec(st, sql);
      dml++;
    } catch (SQLException e) {
      if (e.getSQLState() == null || !e.getSQLState().startsWith("22")) {
        throw e;
      }
    }
  }

  private void compare(Statement st, String view, String query) throws SQLException {
    List<String> expected;
    try {
      expected = rows(st, query);
    } catch (SQLException e) {
      if (e.getSQLState() != null && e.getSQLState().startsWith("22")) {
        skipped++;
        return;
      }
      throw new SQLException("batch " + query + ": " + e.getMessage(), e.getSQLState(), e);
    }
    List<String> actual;
    try {
      actual = rows(st, "SELECT * FROM " + view);
    } catch (SQLException e) {
      throw new SQLException("reading " + view + ": " + e.getMessage(), e.getSQLState(), e);
    }
    comparisons++;
    if (!expected.equals(actual)) {
      List<String> missing = new ArrayList<>(expected);
      actual.forEach(missing::remove);
      List<String> extra = new ArrayList<>(actual);
      expected.forEach(extra::remove);
      List<String> errors =
          rows(
              st,
              "SELECT error_kind, last_error FROM rw_catalog.rw_expression_errors"
                  + " WHERE job_name = '"
                  + view
                  + "'");
      differences.add(
          view
              + " = "
              + query
              + "\n  missing "
              + missing
              + "\n  extra "
              + extra
              + "\n  the view's expression errors: "
              + errors
              + "\n  after:\n"
              + recent());
    }
  }

  private void exec(Statement st, String sql) throws SQLException {
    history.addLast(sql);
    while (history.size() > 30) {
      history.removeFirst();
    }
    log.println(sql + ";");
    st.execute(sql);
  }

  private String recent() {
    return "    " + String.join(";\n    ", history) + ";";
  }

  /** The rows as sorted text; numbers to 9 significant digits (float sums, averages). */
  static List<String> rows(Statement st, String sql) throws SQLException {
    return Probes.sortedRows(st, sql, Fuzz::normalize);
  }

  static String normalize(String v) {
    if (v == null) {
      return "NULL";
    }
    try {
      BigDecimal d = new BigDecimal(v).round(new MathContext(9)).stripTrailingZeros();
      return d.signum() == 0 ? "0" : d.toPlainString();
    } catch (NumberFormatException e) {
      return v;
    }
  }

  private double recoveries() {
    return Probes.recoveries(metaHttpPort);
  }
}
