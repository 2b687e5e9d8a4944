package dev.tideway.it.slt;

import dev.tideway.it.slt.SltRecord.Location;
import dev.tideway.it.slt.SltRecord.SortMode;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * Runs {@code .slt} records over pgjdbc, one fresh connection per file, stopping at a file's first
 * failure (later records usually depend on earlier ones). Values are rendered as sqllogictest-rs's
 * PostgreSQL engines do: SQL NULL as {@code NULL}, the empty string as {@code (empty)}, booleans as
 * {@code t}/{@code f}, everything else in its PostgreSQL text form. An expected error's regex is
 * searched in {@code "<message>\nSQLSTATE <code>"}, so a record may name either.
 *
 * <p>Thread confinement: one runner per thread (it holds the file's connection and sort mode).
 */
final class SltRunner {
  /** Where a failure happened and why: file:line, the SQL, expected vs actual. */
  record Failure(Location location, String sql, String message) {
    @Override
    public String toString() {
      return location + ": " + message + "\n  in: " + sql.replace("\n", "\n      ");
    }
  }

  /** The outcome of one file. */
  record FileResult(String file, int recordsRun, Optional<Failure> failure) {
    boolean passed() {
      return failure.isEmpty();
    }
  }

  private final String jdbcUrl;
  private final Properties properties;
  private SortMode defaultSort = SortMode.NOSORT;

  SltRunner(String jdbcUrl, Properties properties) {
    this.jdbcUrl = jdbcUrl;
    this.properties = properties;
  }

  /** Parses and runs one file. */
  FileResult run(Path file) throws SQLException {
    return run(file.toString(), SltParser.parseFile(file));
  }

  /** Runs parsed records named {@code file} on a new connection. */
  FileResult run(String file, List<SltRecord> records) throws SQLException {
    defaultSort = SortMode.NOSORT;
    int n = 0;
    try (Connection c = DriverManager.getConnection(jdbcUrl, properties)) {
      for (SltRecord r : records) {
        if (r instanceof SltRecord.Halt) {
          break;
        }
        Optional<Failure> f = runOne(c, r);
        n++;
        if (f.isPresent()) {
          return new FileResult(file, n, f);
        }
      }
    }
    return new FileResult(file, n, Optional.empty());
  }

  private Optional<Failure> runOne(Connection c, SltRecord r) throws SQLException {
    if (r instanceof SltRecord.Statement s) {
      return statement(c, s);
    }
    if (r instanceof SltRecord.Query q) {
      return query(c, q);
    }
    if (r instanceof SltRecord.Flush f) {
      return statement(
          c,
          new SltRecord.Statement(f.location(), "FLUSH", new SltRecord.Ok(OptionalLong.empty())));
    }
    if (r instanceof SltRecord.Sleep s) {
      sleep(s.millis());
      return Optional.empty();
    }
    if (r instanceof SltRecord.SortModeControl m) {
      defaultSort = m.mode();
      return Optional.empty();
    }
    throw new IllegalStateException("unhandled record " + r);
  }

  private static void sleep(long millis) {
    try {
      TimeUnit.MILLISECONDS.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while sleeping", e);
    }
  }

  private static String errorText(SQLException e) {
    return e.getMessage() + "\nSQLSTATE " + e.getSQLState();
  }

  /** Checks a failure against an expected error; empty when it matches. */
  private static Optional<String> matchError(SltRecord.Error want, SQLException e) {
    String text = errorText(e);
    if (want.pattern().isPresent() && !want.pattern().get().matcher(text).find()) {
      return Optional.of(
          "error does not match /" + want.pattern().get() + "/\n  actual error: " + text);
    }
    if (want.text().isPresent()
        && !ResultComparator.normalize(text)
            .contains(ResultComparator.normalize(want.text().get()))) {
      return Optional.of(
          "error does not contain \"" + want.text().get() + "\"\n  actual error: " + text);
    }
    return Optional.empty();
  }

  private static Optional<Failure> statement(Connection c, SltRecord.Statement s) {
    Failure fail;
    try (Statement st = c.createStatement()) {
      boolean rows = st.execute(s.sql());
      if (s.expect() instanceof SltRecord.Error) {
        return Optional.of(
            new Failure(s.location(), s.sql(), "statement succeeded but an error was expected"));
      }
      SltRecord.Ok ok = (SltRecord.Ok) s.expect();
      if (ok.count().isPresent() && (rows || st.getUpdateCount() != ok.count().getAsLong())) {
        return Optional.of(
            new Failure(
                s.location(),
                s.sql(),
                "expected "
                    + ok.count().getAsLong()
                    + " rows affected, got "
                    + (rows ? "a result set" : st.getUpdateCount())));
      }
      return Optional.empty();
    } catch (SQLException e) {
      if (s.expect() instanceof SltRecord.Error want) {
        return matchError(want, e).map(m -> new Failure(s.location(), s.sql(), m));
      }
      fail = new Failure(s.location(), s.sql(), "statement failed: " + errorText(e));
    }
    return Optional.of(fail);
  }

  private Optional<Failure> query(Connection c, SltRecord.Query q) throws SQLException {
    Optional<Failure> last = Optional.empty();
    for (int attempt = 0; attempt <= q.retries(); attempt++) {
      if (attempt > 0) {
        sleep(q.backoffMillis());
      }
      last = queryOnce(c, q);
      if (last.isEmpty()) {
        return last;
      }
    }
    return last.map(
        f ->
            q.retries() == 0
                ? f
                : new Failure(
                    f.location(),
                    f.sql(),
                    f.message() + "\n  (after " + (q.retries() + 1) + " attempts)"));
  }

  private Optional<Failure> queryOnce(Connection c, SltRecord.Query q) {
    List<List<String>> rows;
    try (Statement st = c.createStatement()) {
      if (!st.execute(q.sql())) {
        return q.expect() instanceof SltRecord.Error
            ? Optional.of(new Failure(q.location(), q.sql(), "query succeeded but expected error"))
            : Optional.of(new Failure(q.location(), q.sql(), "query returned no result set"));
      }
      try (ResultSet rs = st.getResultSet()) {
        rows = render(rs);
      }
    } catch (SQLException e) {
      if (q.expect() instanceof SltRecord.Error want) {
        return matchError(want, e).map(m -> new Failure(q.location(), q.sql(), m));
      }
      return Optional.of(new Failure(q.location(), q.sql(), "query failed: " + errorText(e)));
    }
    if (q.expect() instanceof SltRecord.Error) {
      return Optional.of(
          new Failure(q.location(), q.sql(), "query succeeded but an error was expected"));
    }
    SortMode mode = q.sortMode().orElse(defaultSort);
    return ResultComparator.compare(mode, rows, q.expected())
        .map(m -> new Failure(q.location(), q.sql(), "query result mismatch: " + m));
  }

  /** Every row of {@code rs} as sqllogictest values. */
  static List<List<String>> render(ResultSet rs) throws SQLException {
    ResultSetMetaData md = rs.getMetaData();
    int n = md.getColumnCount();
    List<List<String>> out = new ArrayList<>();
    while (rs.next()) {
      List<String> row = new ArrayList<>(n);
      for (int k = 1; k <= n; k++) {
        String v = rs.getString(k);
        if (v == null) {
          row.add("NULL");
        } else if (md.getColumnType(k) == Types.BIT || md.getColumnType(k) == Types.BOOLEAN) {
          row.add(rs.getBoolean(k) ? "t" : "f");
        } else if (v.isEmpty()) {
          row.add("(empty)");
        } else {
          row.add(v);
        }
      }
      out.add(row);
    }
    return out;
  }
}
