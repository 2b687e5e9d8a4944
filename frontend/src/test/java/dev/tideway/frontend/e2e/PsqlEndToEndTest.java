package dev.tideway.frontend.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The real {@code psql} binary against the frontend (skipped, saying so, when psql is absent). */
class PsqlEndToEndTest {
  private static TestCluster cluster;
  private static String psql;

  @BeforeAll
  static void start() throws Exception {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      File f = new File(dir, "psql");
      if (f.canExecute()) {
        psql = f.getPath();
        break;
      }
    }
    Assumptions.assumeTrue(
        psql != null,
        "psql not found on PATH: install postgresql-client to run the psql end-to-end tests");
    cluster = new TestCluster();
  }

  @AfterAll
  static void stop() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  /** Runs psql with {@code -c} commands; returns exit code and combined output. */
  private static Run psql(String... commands) throws Exception {
    List<String> cmd =
        new ArrayList<>(
            List.of(
                psql,
                "-X",
                "-h",
                "127.0.0.1",
                "-p",
                String.valueOf(cluster.port),
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
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    return new Run(p.exitValue(), out);
  }

  record Run(int exit, String out) {}

  @Test
  void createInsertSelectAndDescribe() throws Exception {
    Run r =
        psql(
            "CREATE TABLE accounts (id BIGINT PRIMARY KEY, owner VARCHAR, balance DECIMAL(10,2))",
            "INSERT INTO accounts VALUES (1, 'ann', 10.50), (2, 'bob', 3)",
            "CREATE MATERIALIZED VIEW rich AS SELECT owner, balance FROM accounts WHERE balance > 5",
            "SELECT * FROM accounts ORDER BY id",
            "\\dt",
            "\\dm",
            "\\d");
    assertThat(r.exit()).as(r.out()).isZero();
    assertThat(r.out())
        .contains("CREATE TABLE", "INSERT 0 2", "CREATE MATERIALIZED VIEW")
        .contains("  1 | ann   |   10.50")
        .containsPattern("public \\| accounts\\s+\\| table\\s+\\| root")
        .containsPattern("public \\| rich\\s+\\| materialized view \\| root");
  }

  /** psql's \\copy sends COPY ... FROM STDIN and streams the file as CopyData. */
  @Test
  void copyFromAFileThroughPsql() throws Exception {
    java.nio.file.Path csv = java.nio.file.Files.createTempFile("copy", ".csv");
    StringBuilder sb = new StringBuilder("id,name,amount\n");
    for (int i = 1; i <= 5000; i++) {
      sb.append(i)
          .append(",\"name ")
          .append(i)
          .append(i % 10 == 0 ? ", quoted\"\"\"" : "\"")
          .append(',');
      sb.append(i % 7 == 0 ? "" : String.valueOf(i * 2)).append('\n');
    }
    java.nio.file.Files.writeString(csv, sb.toString());
    try {
      Run r =
          psql(
              "CREATE TABLE copied (id BIGINT PRIMARY KEY, name VARCHAR, amount INT)",
              "\\copy copied FROM '" + csv + "' WITH (FORMAT csv, HEADER true)",
              "SELECT count(*), count(amount), sum(id) FROM copied",
              "SELECT name FROM copied WHERE id = 10");
      assertThat(r.exit()).as(r.out()).isZero();
      assertThat(r.out())
          .contains("COPY 5000")
          .contains("5000 |  4286 | 12502500")
          .contains("name 10, quoted\"");
    } finally {
      java.nio.file.Files.deleteIfExists(csv);
    }
  }

  @Test
  void describeOneTableAndOneView() throws Exception {
    Run r =
        psql(
            "CREATE TABLE described (id BIGINT PRIMARY KEY, owner VARCHAR, balance DECIMAL(10,2))",
            "CREATE MATERIALIZED VIEW described_mv AS SELECT owner, count(*) AS n FROM described GROUP BY owner",
            "\\d described",
            "\\d described_mv",
            "\\d+ described",
            "\\d+ described_mv");
    assertThat(r.exit()).as(r.out()).isZero();
    assertThat(r.out())
        .contains("Table \"public.described\"")
        .containsPattern("id\\s+\\| bigint\\s+\\|\\s+\\| not null")
        .containsPattern("owner\\s+\\| character varying")
        .containsPattern("balance\\s+\\| numeric\\(10,2\\)")
        .contains("Materialized view \"public.described_mv\"")
        .containsPattern("n\\s+\\| bigint")
        .containsPattern("id\\s+\\| bigint\\s+\\|\\s+\\| not null\\s+\\|\\s+\\| plain")
        .contains("View definition:");
  }

  @Test
  void errorsShowSqlStateAndCaret() throws Exception {
    Run r = psql("SELECT * FROM nosuch_table");
    assertThat(r.exit()).isNotZero();
    assertThat(r.out())
        .contains("ERROR:  42P01: relation \"nosuch_table\" does not exist")
        .contains("LINE 1: SELECT * FROM nosuch_table")
        .contains("^");
    Run syntax = psql("SELEC 1");
    assertThat(syntax.out()).contains("42601");
  }

  @Test
  void commandsAndProgressSurfaceThroughPsql() throws Exception {
    Run r =
        psql(
            "CREATE TABLE cmd_t (a INT, b VARCHAR)",
            "INSERT INTO cmd_t SELECT x, 'r' || x FROM generate_series(1, 5) AS x",
            "UPDATE cmd_t SET b = 'even' WHERE a % 2 = 0",
            "DELETE FROM cmd_t WHERE a = 5",
            "FLUSH",
            "SET BACKGROUND_DDL = true",
            "SET backfill_rate_limit = 100",
            "CREATE MATERIALIZED VIEW cmd_m AS SELECT b, count(*) AS n FROM cmd_t GROUP BY b",
            "SHOW TABLES",
            "SHOW JOBS",
            "SELECT ddl_id, progress FROM rw_catalog.rw_ddl_progress",
            "SELECT b, n FROM cmd_m ORDER BY b",
            "EXPLAIN CREATE MATERIALIZED VIEW cmd_x AS SELECT a FROM cmd_t WHERE a > 1",
            "DROP MATERIALIZED VIEW cmd_m",
            "DROP TABLE cmd_t");
    assertThat(r.exit()).as(r.out()).isZero();
    assertThat(r.out())
        .contains("INSERT 0 5", "UPDATE 2", "DELETE 1", "FLUSH", "SET")
        .containsPattern("Id \\| Statement \\| Progress \\| Create Type")
        .containsPattern("ddl_id \\| progress")
        .containsPattern("even\\s+\\|\\s+2")
        .contains("StreamMaterialize { table: cmd_x")
        .contains("DROP MATERIALIZED VIEW", "DROP TABLE");
    Run unsupported = psql("CREATE VIEW v AS SELECT 1");
    assertThat(unsupported.exit()).isNotZero();
    assertThat(unsupported.out()).contains("ERROR:  0A000: CREATE VIEW is not supported");
  }
}
