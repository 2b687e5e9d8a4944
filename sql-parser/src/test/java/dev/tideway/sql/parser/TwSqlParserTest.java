package dev.tideway.sql.parser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tideway.sql.parser.impl.TwSqlParserImpl;
import java.util.List;
import java.util.Map;
import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.avatica.util.Quoting;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlExplain;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlSetOption;
import org.apache.calcite.sql.ddl.SqlCreateMaterializedView;
import org.apache.calcite.sql.ddl.SqlCreateView;
import org.apache.calcite.sql.dialect.CalciteSqlDialect;
import org.apache.calcite.sql.fun.SqlLibraryOperators;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.validate.SqlConformanceEnum;
import org.apache.calcite.util.Litmus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TwSqlParserTest {
  static final SqlParser.Config CONFIG =
      SqlParser.config()
          .withParserFactory(TwSqlParserImpl.FACTORY)
          .withQuoting(Quoting.DOUBLE_QUOTE)
          .withUnquotedCasing(Casing.TO_LOWER)
          .withQuotedCasing(Casing.UNCHANGED)
          .withCaseSensitive(true)
          .withConformance(SqlConformanceEnum.LENIENT);

  static SqlNode parse(String sql) {
    try {
      return SqlParser.create(sql, CONFIG).parseStmt();
    } catch (SqlParseException e) {
      throw new AssertionError(sql + "\n" + e.getMessage(), e);
    }
  }

  /** Each statement of Tideway's surface parses, and its unparse parses back to an equal tree. */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "CREATE TABLE t (id BIGINT PRIMARY KEY, k INT, v VARCHAR)",
        "CREATE TABLE t (id BIGINT, k INT, PRIMARY KEY (id))",
        "CREATE TABLE IF NOT EXISTS t (a INT NOT NULL, b INT DEFAULT 1, CONSTRAINT pk PRIMARY KEY (a))",
        "CREATE TABLE t (a INT) APPEND ONLY WITH (connector = 'datagen') FORMAT plain ENCODE json",
        "CREATE TABLE t2 AS SELECT 1 AS a",
        "CREATE TABLE t (a INT UNIQUE, b INT, CONSTRAINT u UNIQUE (b))",
        "CREATE SOURCE s WITH (connector='nexmark', nexmark.table.type='Bid')",
        "CREATE SOURCE IF NOT EXISTS g (id BIGINT, v VARCHAR) WITH (connector = 'datagen',"
            + " datagen.rows.per.second = '10', 'fields.id.kind' = sequence, x = 5)",
        "CREATE MATERIALIZED VIEW mv AS SELECT k, count(*) AS n FROM t GROUP BY k",
        "CREATE MATERIALIZED VIEW IF NOT EXISTS mv AS SELECT 1",
        "CREATE VIEW v AS SELECT 1",
        "INSERT INTO t SELECT g, g % 7, 'c' || g FROM generate_series(1, 100) AS g",
        "UPDATE t SET k = k + 1 WHERE id < 10",
        "DELETE FROM t WHERE id > 5",
        "SET BACKGROUND_DDL = true",
        "SET backfill_rate_limit = 1000",
        "SET backfill_rate_limit TO DEFAULT",
        "SET application_name = 'psql'",
        "SET SESSION statement_timeout = -5",
        "SET TIME ZONE 'UTC'",
        "SET search_path = a, b",
        "RESET ALL",
        "SHOW JOBS",
        "SHOW TABLES",
        "SHOW MATERIALIZED VIEWS",
        "SHOW SOURCES",
        "SHOW rw_implicit_flush",
        "SHOW ALL",
        "CANCEL JOBS 1001, 1002",
        "CANCEL JOB 7",
        "FLUSH",
        "DROP MATERIALIZED VIEW mv",
        "DROP TABLE t",
        "DROP SOURCE IF EXISTS s CASCADE",
        "DROP VIEW IF EXISTS v",
        "EXPLAIN CREATE MATERIALIZED VIEW mv AS SELECT k FROM t",
        "EXPLAIN SELECT * FROM t WHERE k > 1",
        "EXPLAIN (SELECT 1)",
        "EXPLAIN INSERT INTO t VALUES (1)",
        "EXPLAIN PLAN FOR SELECT 1",
        "SELECT window_start FROM TUMBLE(bid, date_time, INTERVAL '10' SECOND)",
        "SELECT * FROM HOP(bid, date_time, INTERVAL '1' SECOND, INTERVAL '2' SECOND)",
        "SELECT * FROM rw_catalog.rw_ddl_progress",
        "SELECT '1'::int + 1, x::varchar(10), (a + b)::bigint FROM t",
        "SELECT v ~ '^a', v !~ 'b', v ~* 'c', v !~* 'd', v != 'e' FROM t",
        "SELECT ts + INTERVAL '1 hour', ts - INTERVAL '2 days 3 hours' FROM t",
        "SELECT E'a\\nb', \"if\", jobs, flush, show, job, cancel, materialized, encode, append FROM t",
        "BEGIN",
        "START TRANSACTION",
        "BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY",
        "START TRANSACTION READ WRITE",
        "COMMIT",
        "ROLLBACK WORK",
        "ALTER MATERIALIZED VIEW mv SET backfill_rate_limit = 100",
        "ALTER MATERIALIZED VIEW mv SET BACKFILL_RATE_LIMIT TO DEFAULT",
        "SELECT * FROM t WHERE a = $1 AND b = $2",
        "SELECT k FROM t ORDER BY k LIMIT 2 OFFSET 1",
      })
  void parsesAndUnparsesToTheSameTree(String sql) {
    SqlNode first = parse(sql);
    String text = first.toSqlString(CalciteSqlDialect.DEFAULT).getSql();
    SqlNode second = parse(text);
    assertThat(first.equalsDeep(second, Litmus.IGNORE))
        .as("%s%n  unparsed: %s%n  reparsed: %s", sql, text, second)
        .isTrue();
  }

  @Test
  void createTableExposesColumnsKeysAndOptions() {
    SqlTwCreateTable ct =
        (SqlTwCreateTable) parse("CREATE TABLE T (ID BIGINT PRIMARY KEY, k INT NOT NULL, v TEXT)");
    assertThat(ct.name.getSimple()).isEqualTo("t");
    assertThat(ct.columns()).extracting(c -> c.name.getSimple()).containsExactly("id", "k", "v");
    assertThat(ct.primaryKey()).containsExactly("id");
    assertThat(ct.columns().get(0).dataType.getNullable()).isFalse();
    assertThat(ct.columns().get(2).dataType.getTypeName().getSimple()).isEqualTo("text");
    SqlTwCreateSource src =
        (SqlTwCreateSource)
            parse(
                "CREATE SOURCE s WITH (connector = 'nexmark', nexmark.table.type = 'Bid',"
                    + " nexmark.event.num = 1000, 'a.b' = x) FORMAT plain ENCODE json");
    assertThat(src.withOptions())
        .isEqualTo(
            Map.of(
                "connector", "nexmark",
                "nexmark.table.type", "Bid",
                "nexmark.event.num", "1000",
                "a.b", "x"));
    assertThat(src.withOptions().keySet())
        .containsExactly("connector", "nexmark.table.type", "nexmark.event.num", "a.b");
  }

  @Test
  void commands() {
    assertThat(((SqlTwCommand) parse("show materialized views")).showWhat())
        .isEqualTo("materialized views");
    assertThat(((SqlTwCommand) parse("CANCEL JOBS 1001, 1002")).jobIds())
        .containsExactly(1001L, 1002L);
    assertThat(((SqlTwCommand) parse("CANCEL JOBS")).jobIds()).isEmpty();
    SqlTwCommand explain = (SqlTwCommand) parse("EXPLAIN CREATE MATERIALIZED VIEW mv AS SELECT 1");
    assertThat(explain.verb()).isEqualTo(SqlTwCommand.Verb.EXPLAIN);
    assertThat(explain.explained()).isInstanceOf(SqlCreateMaterializedView.class);
    assertThat(parse("EXPLAIN PLAN FOR SELECT 1")).isInstanceOf(SqlExplain.class);
    assertThat(parse("CREATE VIEW v AS SELECT 1")).isInstanceOf(SqlCreateView.class);
    SqlSetOption set = (SqlSetOption) parse("SET backfill_rate_limit TO 1000");
    assertThat(set.getName().getSimple()).isEqualTo("backfill_rate_limit");
    SqlTwDrop drop = (SqlTwDrop) parse("DROP SOURCE IF EXISTS s CASCADE");
    assertThat(List.of(drop.kind(), drop.ifExists, drop.cascade()))
        .containsExactly(SqlTwDrop.Kind.SOURCE, true, true);
    assertThat(((SqlTwCommand) parse("START TRANSACTION")).verb())
        .isEqualTo(SqlTwCommand.Verb.START_TRANSACTION);
  }

  @Test
  void postgresExpressions() {
    SqlSelect s =
        (SqlSelect) parse("SELECT '1'::int + 1, v !~* 'x', INTERVAL '1 hour', jobs FROM t");
    SqlCall plus = (SqlCall) s.getSelectList().get(0);
    assertThat(((SqlCall) plus.operand(0)).getOperator()).isEqualTo(SqlLibraryOperators.INFIX_CAST);
    assertThat(((SqlBasicCall) s.getSelectList().get(1)).getKind())
        .isEqualTo(SqlKind.POSIX_REGEX_CASE_INSENSITIVE);
    assertThat(PgIntervalLiteral.is(s.getSelectList().get(2))).isTrue();
    assertThat(PgIntervalLiteral.text((SqlCall) s.getSelectList().get(2))).isEqualTo("1 hour");
    assertThat(((SqlIdentifier) s.getSelectList().get(3)).getSimple()).isEqualTo("jobs");
  }

  @Test
  void syntaxErrorsCarryTheirPosition() {
    assertThatThrownBy(() -> SqlParser.create("SELECT * FROM t WHERE", CONFIG).parseStmt())
        .isInstanceOf(SqlParseException.class)
        .satisfies(e -> assertThat(((SqlParseException) e).getPos().getColumnNum()).isEqualTo(21));
    assertThatThrownBy(() -> SqlParser.create("CANCEL JOBS abc", CONFIG).parseStmt())
        .isInstanceOf(SqlParseException.class);
  }
}
