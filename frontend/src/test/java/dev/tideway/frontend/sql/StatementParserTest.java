package dev.tideway.frontend.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tideway.common.types.DataType;
import dev.tideway.frontend.meta.RelationKind;
import dev.tideway.frontend.pgwire.PgException;
import java.util.List;
import java.util.Map;
import org.apache.calcite.sql.dialect.CalciteSqlDialect;
import org.junit.jupiter.api.Test;

class StatementParserTest {
  private static Statement parse(String sql) {
    return StatementParser.parse(sql).statement();
  }

  private static String sqlState(Throwable e) {
    return ((PgException) e).sqlState();
  }

  @Test
  void createTableWithColumnOrTableLevelPrimaryKeyOrNone() {
    assertThat(
            parse(
                "CREATE TABLE T (ID BIGINT PRIMARY KEY, k int4, v text, ts timestamptz, p NUMERIC(10,2) NOT NULL)"))
        .isEqualTo(
            new Statement.CreateTable(
                "t",
                List.of(
                    new Statement.ColumnDef("id", DataType.BIGINT, true),
                    new Statement.ColumnDef("k", DataType.INT, false),
                    new Statement.ColumnDef("v", DataType.VARCHAR, false),
                    new Statement.ColumnDef("ts", DataType.TIMESTAMPTZ, false),
                    new Statement.ColumnDef("p", DataType.decimal(10, 2), true)),
                List.of("id"),
                false));
    assertThat(
            ((Statement.CreateTable) parse("create table t (a int, b int, primary key (b, a))"))
                .primaryKey())
        .containsExactly("b", "a");
    assertThat(((Statement.CreateTable) parse("CREATE TABLE \"Mixed\" (a INT)")).name())
        .isEqualTo("Mixed");
    assertThat(((Statement.CreateTable) parse("CREATE TABLE t (a INT)")).primaryKey()).isEmpty();
  }

  @Test
  void createSourceKeepsDottedOptionKeysAndFillsNexmarkColumns() {
    Statement.CreateSource s =
        (Statement.CreateSource)
            parse(
                "CREATE SOURCE bid WITH (connector = 'nexmark', nexmark.table.type = 'Bid', nexmark.event.num = 1000)");
    assertThat(s.with())
        .isEqualTo(
            Map.of(
                "connector", "nexmark", "nexmark.table.type", "Bid", "nexmark.event.num", "1000"));
    assertThat(s.columns())
        .extracting(Statement.ColumnDef::name)
        .startsWith("auction", "bidder", "price");
    Statement.CreateSource d =
        (Statement.CreateSource)
            parse(
                "create source g (id bigint, v varchar) with (connector='datagen', datagen.rows.per.second='10')");
    assertThat(d.columns()).hasSize(2);
    assertThatThrownBy(() -> parse("CREATE SOURCE k WITH (connector = 'pulsar')"))
        .satisfies(e -> assertThat(sqlState(e)).isEqualTo("0A000"))
        .hasMessageContaining("connector 'pulsar'");
    // kafka: INCLUDE columns follow the declared ones; FORMAT/ENCODE/INCLUDE become properties
    Statement.CreateSource k =
        (Statement.CreateSource)
            parse(
                "CREATE SOURCE k (id BIGINT) INCLUDE partition INCLUDE key AS kk WITH (connector ="
                    + " 'kafka', topic = 't', properties.bootstrap.server = 'h:1')"
                    + " FORMAT PLAIN ENCODE CSV (delimiter = '|')");
    assertThat(k.columns())
        .extracting(c -> c.name() + " " + c.type())
        .containsExactly("id bigint", "_rw_kafka_partition character varying", "kk bytea");
    assertThat(k.with())
        .containsEntry("encode", "csv")
        .containsEntry("encode.delimiter", "|")
        .containsEntry("include.partition", "_rw_kafka_partition")
        .containsEntry("_source.name", "k");
    assertThatThrownBy(() -> parse("CREATE SOURCE k WITH (connector = 'kafka')"))
        .hasMessageContaining("a kafka source needs a column list");
    assertThatThrownBy(
            () ->
                parse(
                    "CREATE SOURCE k (a INT) WITH (connector = 'kafka', topic = 't',"
                        + " properties.bootstrap.server = 'h:1', encode = 'csv')"))
        .satisfies(e -> assertThat(sqlState(e)).isEqualTo("22023"))
        .hasMessageContaining("unknown option \"encode\"");
    // a mistyped option is an error naming it, never silently ignored
    assertThatThrownBy(
            () ->
                parse(
                    "create source g (id bigint) with (connector='datagen', datagen.row.per.second='10')"))
        .satisfies(e -> assertThat(sqlState(e)).isEqualTo("22023"))
        .hasMessageContaining("unknown option \"datagen.row.per.second\"");
    assertThatThrownBy(
            () ->
                parse(
                    "create source g (id bigint) with (connector='datagen', fields.idd.kind='sequence')"))
        .satisfies(e -> assertThat(sqlState(e)).isEqualTo("22023"))
        .hasMessageContaining("fields.idd.kind");
    assertThatThrownBy(
            () ->
                parse(
                    "CREATE SOURCE b WITH (connector='nexmark', nexmark.table.type='Bid', nexmark.event.num='many')"))
        .satisfies(e -> assertThat(sqlState(e)).isEqualTo("22023"))
        .hasMessageContaining("non-negative integer");
    assertThat(
            parse(
                "create source g (id bigint) with (connector='datagen', fields.id.kind='sequence',"
                    + " fields.id.start='1', source.rows.per.second='5')"))
        .isInstanceOf(Statement.CreateSource.class);
  }

  @Test
  void dmlIsSplitIntoItsQueries() {
    assertThat(parse("INSERT INTO t (a, b) VALUES (1, 'x')"))
        .isEqualTo(new Statement.Insert("t", List.of("a", "b"), "VALUES (1, 'x')"));
    assertThat(parse("insert into t select g, g % 7 from generate_series(1, 10) as g"))
        .isEqualTo(
            new Statement.Insert(
                "t", List.of(), "select g, g % 7 from generate_series(1, 10) as g"));
    assertThat(parse("UPDATE t SET k = k + 1, v = 'a,b' WHERE id < f(1, 2)"))
        .isEqualTo(
            new Statement.Update(
                "t", List.of("k", "v"), List.of("k + 1", "'a,b'"), "id < f(1, 2)"));
    assertThat(parse("DELETE FROM t WHERE id > 5")).isEqualTo(new Statement.Delete("t", "id > 5"));
    assertThat(parse("DELETE FROM t")).isEqualTo(new Statement.Delete("t", null));
    assertThatThrownBy(() -> parse("INSERT INTO t VALUES (1) RETURNING a"))
        .satisfies(e -> assertThat(sqlState(e)).isEqualTo("0A000"))
        .hasMessageContaining("RETURNING");
  }

  @Test
  void commandsCalciteCannotParse() {
    assertThat(parse("SHOW TABLES")).isEqualTo(new Statement.Show("tables"));
    assertThat(parse("show materialized views"))
        .isEqualTo(new Statement.Show("materialized views"));
    assertThat(parse("SHOW JOBS")).isEqualTo(new Statement.Show("jobs"));
    assertThat(parse("SET BACKGROUND_DDL = true"))
        .isEqualTo(new Statement.SetVar("background_ddl", "true"));
    assertThat(parse("SET backfill_rate_limit TO 1000"))
        .isEqualTo(new Statement.SetVar("backfill_rate_limit", "1000"));
    assertThat(parse("SET application_name = 'PostgreSQL JDBC Driver'"))
        .isEqualTo(new Statement.SetVar("application_name", "PostgreSQL JDBC Driver"));
    assertThat(parse("FLUSH")).isEqualTo(new Statement.Flush());
    assertThat(parse("ALTER MATERIALIZED VIEW mv SET BACKFILL_RATE_LIMIT = 100"))
        .isEqualTo(new Statement.AlterBackfillRateLimit("mv", java.util.OptionalLong.of(100)));
    assertThat(parse("alter materialized view mv set backfill_rate_limit to default"))
        .isEqualTo(new Statement.AlterBackfillRateLimit("mv", java.util.OptionalLong.empty()));
    assertThat(parse("CANCEL JOBS 1001, 1002"))
        .isEqualTo(new Statement.CancelJobs(List.of(1001L, 1002L)));
    assertThat(parse("BEGIN"))
        .isEqualTo(new Statement.Transaction(Statement.Transaction.Kind.BEGIN, "BEGIN"));
    assertThat(parse("DROP MATERIALIZED VIEW IF EXISTS mv CASCADE"))
        .isEqualTo(new Statement.Drop(RelationKind.MATERIALIZED_VIEW, "mv", true, true));
    assertThat(parse("DROP SOURCE s"))
        .isEqualTo(new Statement.Drop(RelationKind.SOURCE, "s", false, false));
    assertThat(parse("EXPLAIN CREATE MATERIALIZED VIEW mv AS SELECT 1"))
        .isEqualTo(
            new Statement.Explain(new Statement.CreateMaterializedView("mv", "SELECT 1", false)));
    assertThat(parse("EXPLAIN SELECT 1"))
        .isEqualTo(new Statement.Explain(new Statement.Query("SELECT 1")));
  }

  private static String tree(String sql) {
    return StatementParser.calciteParse(PgRewriter.rewrite(sql).sql())
        .toSqlString(c -> c.withDialect(CalciteSqlDialect.DEFAULT).withQuoteAllIdentifiers(false))
        .getSql()
        .replaceAll("\\s+", " ");
  }

  @Test
  void postgresSyntaxParsesIntoWhatCalciteValidates() {
    assertThat(tree("SELECT '10'::bigint + 1, k::int8, v::varchar(10), t::text FROM x"))
        .isEqualTo(
            "SELECT CAST('10' AS BIGINT) + 1, CAST(k AS BIGINT), CAST(v AS VARCHAR(10)),"
                + " CAST(t AS VARCHAR) FROM x");
    assertThat(tree("SELECT c.oid::pg_catalog.regclass, 'pg_class'::regclass FROM c"))
        .isEqualTo("SELECT pg_regclass_name(c.oid), pg_regclass_oid('pg_class') FROM c");
    assertThat(
            tree(
                "SELECT 1 FROM c WHERE c.relname OPERATOR(pg_catalog.~) '^(t)$'"
                    + " COLLATE pg_catalog.default AND n.nspname !~* E'^pg\\_'"))
        .isEqualTo(
            "SELECT 1 FROM c WHERE pg_regex_match(c.relname, '^(t)$', 0)"
                + " AND NOT pg_regex_match(n.nspname, '^pg_', 1)");
    assertThat(
            tree(
                "SELECT window_start FROM TUMBLE(bid, date_time, INTERVAL '10' SECOND) JOIN"
                    + " HOP(\"B\", ts, INTERVAL '1 second', INTERVAL '2' SECOND) ON true"))
        .isEqualTo(
            "SELECT window_start FROM TABLE(TUMBLE(TABLE bid, DESCRIPTOR(date_time),"
                + " INTERVAL '10' SECOND)) INNER JOIN TABLE(HOP(TABLE \"B\", DESCRIPTOR(ts),"
                + " INTERVAL '1' SECOND(10, 6), INTERVAL '2' SECOND)) ON TRUE");
    assertThat(tree("SELECT g FROM generate_series(1, 3) AS g"))
        .isEqualTo("SELECT g FROM TABLE(generate_series(1, 3)) AS g (g)");
    assertThatThrownBy(() -> tree("SELECT 1::nosuchtype"))
        .satisfies(e -> assertThat(sqlState(e)).isEqualTo("42704"));
    PgRewriter.Rewritten p =
        PgRewriter.rewrite("SELECT * FROM t WHERE a = $2 AND b = $1 AND c = '$1'");
    assertThat(p.sql()).isEqualTo("SELECT * FROM t WHERE a = ? AND b = ? AND c = '$1'");
    assertThat(p.paramOrder()).containsExactly(2, 1);
  }

  @Test
  void formsOnlyTheGrammarParses() {
    assertThat(parse("SELECT '1'::int + 1")).isEqualTo(new Statement.Query("SELECT '1'::int + 1"));
    assertThat(parse("SELECT jobs, flush, show, cancel, materialized FROM t"))
        .isInstanceOf(Statement.Query.class);
    assertThat(parse("SELECT ts + INTERVAL '1 hour' FROM t")).isInstanceOf(Statement.Query.class);
    assertThat(parse("SELECT v FROM t WHERE v !~ 'x'")).isInstanceOf(Statement.Query.class);
    Statement.CreateSource s =
        (Statement.CreateSource)
            parse(
                "CREATE SOURCE IF NOT EXISTS b WITH (connector='nexmark', nexmark.table.type='Bid')");
    assertThat(s.with()).containsEntry("nexmark.table.type", "Bid");
    assertThat(parse("EXPLAIN VERBOSE SELECT 1"))
        .isEqualTo(new Statement.Explain(new Statement.Query("SELECT 1")));
    assertThat(parse("EXPLAIN SELECT '1'::int"))
        .isEqualTo(new Statement.Explain(new Statement.Query("SELECT '1'::int")));
    assertThat(parse("SET TIME ZONE 'UTC'")).isEqualTo(new Statement.SetVar("timezone", "UTC"));
    assertThat(parse("START TRANSACTION"))
        .isEqualTo(
            new Statement.Transaction(Statement.Transaction.Kind.BEGIN, "START TRANSACTION"));
    assertThat(parse("BEGIN ISOLATION LEVEL READ COMMITTED, READ ONLY"))
        .isEqualTo(new Statement.Transaction(Statement.Transaction.Kind.BEGIN, "BEGIN"));
    assertThatThrownBy(() -> parse("SELECT * FROM t WHERE"))
        .satisfies(e -> assertThat(sqlState(e)).isEqualTo("42601"))
        .hasMessage("syntax error at end of input");
    assertThatThrownBy(() -> parse("SELECT a b c FROM t"))
        .hasMessage("syntax error at or near \"c\"")
        .satisfies(e -> assertThat(((PgException) e).position()).isEqualTo(12));
    assertThatThrownBy(() -> parse("CANCEL JOBS"))
        .hasMessageContaining("CANCEL JOBS needs at least one job id");
  }

  @Test
  void splitRespectsStringsCommentsAndQuotedNames() {
    assertThat(StatementParser.split("select 1; select 'a;b' -- c;\n; select \"x;y\" from t; ;"))
        .containsExactly("select 1", "select 'a;b' -- c;", "select \"x;y\" from t");
  }

  @Test
  void preciseErrors() {
    assertThatThrownBy(() -> parse("SELEC 1"))
        .satisfies(e -> assertThat(sqlState(e)).isEqualTo("42601"))
        .hasMessageContaining("syntax error at or near \"SELEC\"")
        .satisfies(e -> assertThat(((PgException) e).position()).isEqualTo(1));
    assertThatThrownBy(() -> parse("SELECT 'unterminated"))
        .satisfies(e -> assertThat(sqlState(e)).isEqualTo("42601"))
        .hasMessageContaining("unterminated quoted string");
    assertThatThrownBy(() -> parse("SELECT * FROM t WHERE"))
        .satisfies(e -> assertThat(sqlState(e)).isEqualTo("42601"));
    for (String unsupported :
        List.of(
            "CREATE VIEW v AS SELECT 1",
            "CREATE INDEX i ON t (a)",
            "COPY t TO '/tmp/t.csv'",
            "COPY t FROM '/etc/passwd'",
            "COPY t FROM STDIN (FORMAT binary)",
            "CREATE TABLE t2 AS SELECT 1",
            "CREATE SINK s AS SELECT 1")) {
      assertThatThrownBy(() -> parse(unsupported))
          .as(unsupported)
          .satisfies(e -> assertThat(sqlState(e)).isEqualTo("0A000"))
          .hasMessageContaining("not supported");
    }
    for (String unique :
        List.of(
            "CREATE TABLE t (a INT UNIQUE)", "CREATE TABLE t (a INT, CONSTRAINT u UNIQUE (a))")) {
      assertThatThrownBy(() -> parse(unique))
          .as(unique)
          .hasMessage("UNIQUE constraints is not supported")
          .satisfies(e -> assertThat(sqlState(e)).isEqualTo("0A000"));
    }
    assertThatThrownBy(() -> parse("ALTER MATERIALIZED VIEW mv RENAME TO mv2"))
        .satisfies(e -> assertThat(sqlState(e)).isEqualTo("0A000"))
        .hasMessageContaining("only ALTER MATERIALIZED VIEW ... SET BACKFILL_RATE_LIMIT");
    assertThatThrownBy(() -> parse("CREATE TABLE t (a INT DEFAULT 1)"))
        .hasMessageContaining("column DEFAULT (column \"a\") is not supported");
  }

  @Test
  void psqlQueriesOverAlwaysEmptyCatalogsAreAnsweredWithoutCalcite() {
    String policies =
        "SELECT pol.polname, pol.polpermissive,\n"
            + "  CASE WHEN pol.polroles = '{0}' THEN NULL ELSE pg_catalog.array_to_string(array("
            + "select rolname from pg_catalog.pg_roles where oid = any (pol.polroles) order by 1),',')"
            + " END,\n  pg_catalog.pg_get_expr(pol.polqual, pol.polrelid),\n"
            + "  pg_catalog.pg_get_expr(pol.polwithcheck, pol.polrelid),\n"
            + "  CASE pol.polcmd WHEN 'r' THEN 'SELECT' END AS cmd\n"
            + "FROM pg_catalog.pg_policy pol\nWHERE pol.polrelid = '16384' ORDER BY 1;";
    assertThat(parse(policies)).isInstanceOf(Statement.EmptyCatalogQuery.class);
    assertThat(((Statement.EmptyCatalogQuery) parse(policies)).columns()).hasSize(6);
    assertThat(parse("SELECT count(*) FROM pg_catalog.pg_policy"))
        .as("any other query goes through Calcite")
        .isInstanceOf(Statement.Query.class);
  }
}
