package dev.tideway.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tideway.cli.cluster.Playground;
import dev.tideway.common.time.Clock;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The real {@code psql} binary against a real playground (embedded ZooKeeper, meta, compute node,
 * frontend in this JVM): DDL, DML, queries, {@code \d}-family commands, foreground and background
 * materialized views whose progress is watched through {@code SHOW JOBS} and {@code
 * rw_catalog.rw_ddl_progress} while a backfill rate limit slows them down, progress NOTICEs of a
 * foreground create, {@code CANCEL JOBS}, Ctrl-C of a foreground create, pk-range push-down in
 * EXPLAIN. Without psql the class is skipped, except on CI (environment variable {@code CI} set),
 * where it fails.
 */
class PsqlPlaygroundIT {
  private static Playground playground;
  private static String psql;
  private static Path dir;

  @BeforeAll
  static void start() throws Exception {
    psql = findPsql();
    if (psql == null) {
      String why = "psql not found on PATH: install postgresql-client (.ci/run does)";
      if (System.getenv("CI") != null) {
        Assertions.fail(why);
      }
      Assumptions.assumeTrue(false, why);
    }
    dir = Files.createTempDirectory("tideway-psql-it");
    playground = Playground.start(PlaygroundIT.options(dir), Clock.system());
  }

  @AfterAll
  static void stop() throws Exception {
    if (playground != null) {
      playground.close();
    }
  }

  private static String findPsql() {
    for (String d : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      File f = new File(d, "psql");
      if (f.canExecute()) {
        return f.getPath();
      }
    }
    return null;
  }

  record Run(int exit, String out) {}

  private static ProcessBuilder command(String... commands) {
    List<String> cmd =
        new ArrayList<>(
            List.of(
                psql,
                "-X",
                "-h",
                "127.0.0.1",
                "-p",
                String.valueOf(playground.pgPort()),
                "-U",
                "root",
                "-d",
                "dev",
                "-v",
                "ON_ERROR_STOP=1",
                "-v",
                "VERBOSITY=verbose"));
    for (String c : commands) {
      cmd.add("-c");
      cmd.add(c);
    }
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    pb.environment().put("PGCONNECT_TIMEOUT", "10");
    return pb;
  }

  /** Runs psql with {@code -c} commands (one session); exit code and combined output. */
  static Run psql(String... commands) throws Exception {
    Process p = command(commands).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    return new Run(p.exitValue(), out);
  }

  /** Unaligned, tuples-only output of one query: one line per row, fields split on '|'. */
  static List<String> psqlRows(String sql) throws Exception {
    Process p = command("\\pset tuples_only on", "\\pset format unaligned", sql).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(out).isZero();
    return out.lines()
        .filter(l -> !l.isBlank())
        .filter(l -> !l.startsWith("Tuples only") && !l.startsWith("Output format"))
        .toList();
  }

  private static void load(String table, int rows) throws Exception {
    Run r =
        psql(
            "CREATE TABLE " + table + " (k BIGINT PRIMARY KEY, g INT, v INT)",
            "INSERT INTO "
                + table
                + " SELECT x, x % 10, x * 7 % 1000 FROM generate_series(1, "
                + rows
                + ") AS x",
            "FLUSH");
    assertThat(r.exit()).as(r.out()).isZero();
    assertThat(r.out()).contains("INSERT 0 " + rows);
  }

  private static long sleepMs(long ms) throws InterruptedException {
    Thread.sleep(ms); // a test pacing its polls of a real cluster
    return ms;
  }

  /** Every {@code \\d} command of psql 15's help, plain and verbose, answers without an error. */
  @Test
  void everyDescribeCommandAnswers() throws Exception {
    Run setup =
        psql(
            "CREATE TABLE ps_every (id INT PRIMARY KEY, v VARCHAR)",
            "CREATE MATERIALIZED VIEW ps_every_mv AS SELECT count(*) AS n FROM ps_every");
    assertThat(setup.exit()).as(setup.out()).isZero();
    // psql itself answers "Did not find any …" with a failure status for some verbose commands
    // over empty catalogs (\\dx+ on a server without extensions): errors are what must not appear
    List<String> commands = new ArrayList<>(List.of("\\set ON_ERROR_STOP 0"));
    for (String c :
        List.of(
            "\\d",
            "\\dt",
            "\\dv",
            "\\dm",
            "\\di",
            "\\ds",
            "\\dE",
            "\\df",
            "\\dn",
            "\\du",
            "\\dg",
            "\\dT",
            "\\dx",
            "\\dp",
            "\\z",
            "\\des",
            "\\dew",
            "\\det",
            "\\dD",
            "\\dc",
            "\\dC",
            "\\dd",
            "\\dl",
            "\\dL",
            "\\dy",
            "\\do",
            "\\db",
            "\\drds",
            "\\dRp",
            "\\dRs",
            "\\dconfig",
            "\\l",
            "\\dA",
            "\\dAc",
            "\\dAf",
            "\\dAo",
            "\\dAp",
            "\\dF",
            "\\dFd",
            "\\dFp",
            "\\dFt",
            "\\dP",
            "\\dX",
            "\\dO",
            "\\d ps_every",
            "\\d ps_every_mv")) {
      commands.add(c);
      commands.add(c.contains(" ") ? c.replaceFirst(" ", "+ ") : c + "+");
    }
    Run r = psql(commands.toArray(String[]::new));
    assertThat(r.out())
        .doesNotContain("ERROR")
        .contains("List of foreign servers")
        .contains("List of casts")
        .contains("pg_default") // \\l+: the database's tablespace
        .contains("ps_every_mv | materialized view"); // \\dp lists relations
    assertThat(psql("DROP MATERIALIZED VIEW ps_every_mv", "DROP TABLE ps_every").exit()).isZero();
  }

  @Test
  void ddlDmlQueriesAndDescribeCommands() throws Exception {
    load("ps_t", 2000);
    Run r =
        psql(
            "CREATE MATERIALIZED VIEW ps_mv AS SELECT g, count(*), sum(v) FROM ps_t GROUP BY g",
            "UPDATE ps_t SET v = 0 WHERE k <= 10",
            "DELETE FROM ps_t WHERE k > 1990",
            "FLUSH",
            "SELECT * FROM ps_mv WHERE g = 3",
            "SELECT g, count(*), sum(v) FROM ps_t WHERE g = 3 GROUP BY g",
            "SELECT count(*) FROM ps_t",
            "SELECT 1 AS one",
            "\\dt",
            "\\dm",
            "\\d",
            "\\d ps_t",
            "\\d+ ps_t",
            "\\d+ ps_mv",
            "EXPLAIN SELECT * FROM ps_t WHERE k = 42",
            "EXPLAIN SELECT * FROM ps_t WHERE k BETWEEN 10 AND 20",
            "SELECT * FROM ps_t WHERE k = 42");
    assertThat(r.exit()).as(r.out()).isZero();
    String out = r.out();
    assertThat(out)
        .contains("CREATE MATERIALIZED VIEW", "UPDATE 10", "DELETE 10", "FLUSH")
        .containsPattern(" g \\| count \\|\\s+sum")
        .containsPattern(" count\\s*\\n-+\\n\\s+1990")
        .containsPattern(" one\\s*\\n-+\\n\\s+1")
        .containsPattern("public \\| ps_t\\s+\\| table\\s+\\| root")
        .containsPattern("public \\| ps_mv\\s+\\| materialized view \\| root")
        .contains("Table \"public.ps_t\"")
        .containsPattern("k\\s+\\| bigint\\s+\\|\\s+\\| not null")
        .containsPattern("k\\s+\\| bigint\\s+\\|\\s+\\| not null\\s+\\|\\s+\\| plain")
        .contains("Materialized view \"public.ps_mv\"", "View definition:")
        .contains("Scan ps_t: point lookup k = 42", "Scan ps_t: pk range k >= 10 AND k <= 20")
        .containsPattern("42 \\|\\s+2 \\|\\s+294");
    // the view's row for g = 3 equals the batch aggregate's (both printed above)
    Matcher m = Pattern.compile("(?m)^\\s+3 \\|\\s+(\\d+) \\|\\s+(\\d+)$").matcher(out);
    List<String> groups = new ArrayList<>();
    while (m.find()) {
      groups.add(m.group(1) + "|" + m.group(2));
    }
    assertThat(groups).hasSize(2);
    assertThat(groups.get(0)).isEqualTo(groups.get(1));
  }

  /** (progress text, consumed rows) of the view's creating job, or null once it is gone. */
  private static String[] progress(String view) throws Exception {
    List<String> rows =
        psqlRows(
            "SELECT progress, consumed_rows FROM rw_catalog.rw_ddl_progress WHERE ddl_statement"
                + " LIKE '%"
                + view
                + " %'");
    assertThat(rows).as("one job per view").hasSizeLessThan(2);
    return rows.isEmpty() ? null : rows.get(0).split("\\|");
  }

  /** The view's line in SHOW JOBS ({@code id|statement|progress|create type}), if listed. */
  private static java.util.Optional<String> showJob(String view) throws Exception {
    return psqlRows("SHOW JOBS").stream().filter(j -> j.contains(view + " ")).findFirst();
  }

  @Test
  void backgroundJobProgressMovesUnderARateLimitAndTheViewEndsExact() throws Exception {
    load("bg_t", 12_000);
    Run r =
        psql(
            "SET BACKGROUND_DDL = true",
            "SET backfill_rate_limit = 1000",
            "CREATE MATERIALIZED VIEW bg_mv AS SELECT g, count(*) AS n, sum(v) AS s FROM bg_t"
                + " GROUP BY g");
    assertThat(r.exit()).as(r.out()).isZero();
    List<Long> consumed = new ArrayList<>();
    List<String> texts = new ArrayList<>();
    List<String> shown = new ArrayList<>();
    long waited = 0;
    String[] p;
    while ((p = progress("bg_mv")) != null) {
      texts.add(p[0]);
      consumed.add(Long.parseLong(p[1]));
      showJob("bg_mv").ifPresent(shown::add);
      assertThat(waited).as("job still running after %s ms: %s", waited, texts).isLessThan(90_000);
      waited += sleepMs(200);
    }
    assertThat(consumed).as("progress never goes backwards").isSorted();
    assertThat(consumed.stream().distinct().count())
        .as("progress seen moving over several polls: %s", texts)
        .isGreaterThanOrEqualTo(3);
    assertThat(texts.get(texts.size() - 1)).matches(".*\\d+(\\.\\d+)?%.*");
    assertThat(shown).as("SHOW JOBS lists the job while it runs").isNotEmpty();
    assertThat(shown.get(0))
        .matches(
            "\\d+\\|CREATE MATERIALIZED VIEW bg_mv AS .*\\|[0-9.]+% \\(\\d+/\\d+\\)\\|BACKGROUND");
    assertThat(shown.stream().map(j -> j.split("\\|")[2]).distinct().count())
        .as("SHOW JOBS progress moves: %s", shown)
        .isGreaterThanOrEqualTo(2);
    assertThat(psqlRows("SELECT * FROM bg_mv ORDER BY g"))
        .isEqualTo(psqlRows("SELECT g, count(*), sum(v) FROM bg_t GROUP BY g ORDER BY g"))
        .hasSize(10);
  }

  @Test
  void foregroundCreateSendsProgressNotices() throws Exception {
    load("fg_t", 6000);
    long t0 = System.nanoTime();
    Run r =
        psql(
            "SET backfill_rate_limit = 250",
            "CREATE MATERIALIZED VIEW fg_mv AS SELECT k, v FROM fg_t WHERE g < 5",
            "SELECT count(*) FROM fg_mv");
    long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t0);
    assertThat(r.exit()).as(r.out()).isZero();
    if (seconds >= 7) {
      assertThat(r.out())
          .as("a create that ran %s s notices its progress every ~5 s", seconds)
          .containsPattern("NOTICE:\\s+(00000: )?CREATE MATERIALIZED VIEW fg_mv: .*\\d");
    }
    assertThat(r.out()).contains("CREATE MATERIALIZED VIEW").containsPattern("\\n\\s+3000\\n");
  }

  @Test
  void ctrlCCancelsAForegroundCreate() throws Exception {
    load("cc_t", 12_000);
    Process p =
        command(
                "SET backfill_rate_limit = 100",
                "CREATE MATERIALIZED VIEW cc_mv AS SELECT k, v FROM cc_t")
            .start();
    long waited = 0;
    while (showJob("cc_mv").isEmpty()) {
      assertThat(waited).as("the job never showed up").isLessThan(60_000);
      waited += sleepMs(200);
    }
    new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).start().waitFor();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(out).isNotZero();
    assertThat(out).contains("57014").contains("canceling statement due to user request");
    waited = 0;
    while (showJob("cc_mv").isPresent()) {
      assertThat(waited).as("the cancelled job is still listed").isLessThan(60_000);
      waited += sleepMs(200);
    }
    assertThat(psqlRows("SHOW MATERIALIZED VIEWS")).doesNotContain("cc_mv");
    Run again = psql("CREATE MATERIALIZED VIEW cc_mv AS SELECT k FROM cc_t WHERE k <= 5");
    assertThat(again.exit()).as("the name is free again: %s", again.out()).isZero();
    assertThat(psqlRows("SELECT count(*) FROM cc_mv")).containsExactly("5");
  }

  @Test
  void pgCancelBackendStopsAnotherSessionsStatementFoundInPgStatActivity() throws Exception {
    load("pc_t", 12_000);
    Process p =
        command(
                "SET application_name = 'loader'",
                "SET backfill_rate_limit = 100",
                "CREATE MATERIALIZED VIEW pc_mv AS SELECT k, v FROM pc_t")
            .start();
    String find =
        "SELECT pid FROM pg_stat_activity WHERE state = 'active'"
            + " AND query LIKE 'CREATE MATERIALIZED VIEW pc_mv%' AND pid <> pg_backend_pid()";
    long waited = 0;
    List<String> pid = psqlRows(find);
    while (pid.isEmpty()) {
      assertThat(waited).as("the create never showed up in pg_stat_activity").isLessThan(60_000);
      waited += sleepMs(200);
      pid = psqlRows(find);
    }
    assertThat(psqlRows("SELECT pg_cancel_backend(" + pid.get(0) + ")")).containsExactly("t");
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(out).contains("57014").contains("canceling statement due to user request");
    assertThat(psqlRows("SELECT pg_cancel_backend(" + pid.get(0) + ")"))
        .as("the session is gone")
        .containsExactly("f");
    List<String> me =
        psqlRows(
            "SELECT usename, state, pid = pg_backend_pid() FROM pg_stat_activity"
                + " WHERE pid = pg_backend_pid()");
    assertThat(me).containsExactly("root|active|t");
  }

  @Test
  void describeCommandsForRolesFunctionsTypesAndExtensions() throws Exception {
    Run r = psql("\\du", "\\dg", "\\df", "\\dT", "\\dx");
    assertThat(r.exit()).as(r.out()).isZero();
    assertThat(r.out())
        .contains("List of roles")
        .contains("root")
        .contains("Superuser")
        .contains("List of functions")
        .contains("List of data types")
        .contains("List of installed extensions");
    assertThat(psqlRows("SELECT TRUE::int, FALSE::bigint, to_char(1234.5, 'FM9,999.00')"))
        .containsExactly("1|0|1,234.50");
    assertThat(psqlRows("SELECT TIMESTAMP WITH TIME ZONE '2024-01-01 10:00:00+02'"))
        .containsExactly("2024-01-01 08:00:00+00");
  }

  @Test
  void createUserWithAPasswordMakesItsConnectionsProveIt() throws Exception {
    Run r =
        psql(
            "CREATE USER alice WITH PASSWORD 'wonder land'",
            "CREATE USER bob NOSUPERUSER",
            "CREATE ROLE nologin_role NOLOGIN");
    assertThat(r.exit()).as(r.out()).isZero();
    assertThat(r.out()).contains("CREATE ROLE");
    String url = "jdbc:postgresql://127.0.0.1:" + playground.pgPort() + "/dev";
    try (java.sql.Connection c = java.sql.DriverManager.getConnection(url, "alice", "wonder land");
        java.sql.Statement st = c.createStatement();
        java.sql.ResultSet rs = st.executeQuery("SELECT current_user")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getString(1)).isEqualTo("alice");
    }
    assertThatThrownBy(() -> java.sql.DriverManager.getConnection(url, "alice", "wrong"))
        .hasMessageContaining("password authentication failed for user \"alice\"");
    java.sql.DriverManager.getConnection(url, "bob", "").close(); // no password: trusted
    assertThatThrownBy(() -> java.sql.DriverManager.getConnection(url, "mallory", ""))
        .hasMessageContaining("role \"mallory\" does not exist");
    assertThatThrownBy(() -> java.sql.DriverManager.getConnection(url, "nologin_role", ""))
        .hasMessageContaining("not permitted to log in");
    assertThat(psqlRows("SELECT rolname, rolsuper, rolpassword FROM pg_roles ORDER BY rolname"))
        .containsExactly("alice|f|********", "bob|f|", "nologin_role|f|", "root|t|");
    Run change = psql("ALTER USER alice WITH PASSWORD 'new one'", "DROP USER bob");
    assertThat(change.exit()).as(change.out()).isZero();
    assertThatThrownBy(() -> java.sql.DriverManager.getConnection(url, "alice", "wonder land"))
        .hasMessageContaining("password authentication failed");
    java.sql.DriverManager.getConnection(url, "alice", "new one").close();
    assertThatThrownBy(() -> java.sql.DriverManager.getConnection(url, "bob", ""))
        .hasMessageContaining("role \"bob\" does not exist");
    Run bad = psql("CREATE USER alice");
    assertThat(bad.exit()).isNotZero();
    assertThat(bad.out()).contains("already exists");
    Run cleanup = psql("DROP USER IF EXISTS alice, nologin_role, nobody");
    assertThat(cleanup.exit()).as(cleanup.out()).isZero();
  }

  @Test
  void rateLimitZeroHoldsABackgroundJobUntilCancelled() throws Exception {
    load("rz_t", 3000);
    Run r =
        psql(
            "SET BACKGROUND_DDL = true",
            "SET backfill_rate_limit = 0",
            "CREATE MATERIALIZED VIEW rz_mv AS SELECT k FROM rz_t");
    assertThat(r.exit()).as(r.out()).isZero();
    List<String> seen = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      String[] p = progress("rz_mv");
      assertThat(p).as("a paused job stays listed").isNotNull();
      assertThat(showJob("rz_mv")).isPresent();
      seen.add(p[1]);
      sleepMs(300); // several barrier intervals (100 ms) between polls
    }
    assertThat(seen).as("consumed rows of a job limited to 0 rows/s").containsOnly("0");
    String id =
        psqlRows("SHOW JOBS").stream()
            .filter(j -> j.contains("rz_mv"))
            .findFirst()
            .orElseThrow()
            .split("\\|")[0];
    Run cancel = psql("CANCEL JOBS " + id);
    assertThat(cancel.exit()).as(cancel.out()).isZero();
    assertThat(cancel.out()).contains(id);
    long waited = 0;
    while (progress("rz_mv") != null) {
      assertThat(waited).isLessThan(60_000);
      waited += sleepMs(200);
    }
    assertThat(psqlRows("SHOW MATERIALIZED VIEWS")).doesNotContain("rz_mv");
  }

  @Test
  void alterRateLimitResumesAPausedJob() throws Exception {
    load("al_t", 3000);
    assertThat(
            psql(
                    "SET BACKGROUND_DDL = true",
                    "SET backfill_rate_limit = 0",
                    "CREATE MATERIALIZED VIEW al_mv AS SELECT g, count(*) AS n FROM al_t GROUP BY g")
                .exit())
        .isZero();
    sleepMs(1000);
    List<String> held = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      held.add(progress("al_mv")[1]);
      sleepMs(300); // several barrier intervals (100 ms) between polls
    }
    assertThat(held).as("consumed rows of a job limited to 0 rows/s").containsOnly("0");
    Run slow = psql("ALTER MATERIALIZED VIEW al_mv SET backfill_rate_limit = 1");
    assertThat(slow.exit()).as(slow.out()).isZero();
    assertThat(slow.out()).contains("ALTER MATERIALIZED VIEW");
    Run paused = psql("ALTER MATERIALIZED VIEW al_mv SET backfill_rate_limit = 0");
    assertThat(paused.exit()).as(paused.out()).isZero();
    String[] at = progress("al_mv");
    assertThat(at).as("still creating at 1 row/s per actor").isNotNull();
    List<String> again = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      again.add(progress("al_mv")[1]);
      sleepMs(300);
    }
    assertThat(again).as("paused again after the ALTER to 0 committed").containsOnly(again.get(0));
    Run alter = psql("ALTER MATERIALIZED VIEW al_mv SET backfill_rate_limit = DEFAULT");
    assertThat(alter.exit()).as(alter.out()).isZero();
    long waited = 0;
    while (progress("al_mv") != null) {
      assertThat(waited).isLessThan(60_000);
      waited += sleepMs(200);
    }
    assertThat(psqlRows("SELECT * FROM al_mv ORDER BY g"))
        .isEqualTo(psqlRows("SELECT g, count(*) FROM al_t GROUP BY g ORDER BY g"));
  }
}
