package dev.tideway.frontend.sql;

import dev.tideway.common.types.DataType;
import dev.tideway.frontend.meta.RelationKind;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/** A parsed statement, as the session dispatches on it. */
public sealed interface Statement {

  /** A column in CREATE TABLE / CREATE SOURCE. */
  record ColumnDef(String name, DataType type, boolean notNull) {}

  /** {@code CREATE TABLE name (cols [, PRIMARY KEY (k)])}; no pk means a hidden {@code _row_id}. */
  record CreateTable(
      String name,
      List<ColumnDef> columns,
      List<String> primaryKey,
      boolean ifNotExists,
      Map<String, String> connector)
      implements Statement {
    /** A table written only by SQL DML. */
    public CreateTable(
        String name, List<ColumnDef> columns, List<String> primaryKey, boolean ifNotExists) {
      this(name, columns, primaryKey, ifNotExists, Map.of());
    }
  }

  /**
   * {@code CREATE SINK name FROM relation | AS query WITH (connector = 'kafka', ...) FORMAT x
   * ENCODE y}: {@code query} is the SELECT whose changes are written ({@code SELECT * FROM
   * relation} for FROM); {@code with} holds the options and {@code format}/{@code encode}.
   */
  record CreateSink(String name, String query, Map<String, String> with, boolean ifNotExists)
      implements Statement {}

  /** {@code CREATE SOURCE name [(cols)] WITH (connector = '...', ...)}. */
  record CreateSource(String name, List<ColumnDef> columns, Map<String, String> with)
      implements Statement {}

  /**
   * {@code CREATE MATERIALIZED VIEW name [(columns)] AS query}; {@code query} in Calcite-ready
   * text; {@code columns} rename the query's first columns (empty: the query's names).
   */
  record CreateMaterializedView(
      String name, String query, boolean ifNotExists, List<String> columns) implements Statement {
    public CreateMaterializedView {
      columns = List.copyOf(columns);
    }

    public CreateMaterializedView(String name, String query, boolean ifNotExists) {
      this(name, query, ifNotExists, List.of());
    }
  }

  /** {@code INSERT INTO table [(cols)] query}; {@code source} is a VALUES or SELECT query. */
  record Insert(
      String table,
      List<String> columns,
      String source,
      java.util.Optional<List<List<ValuesRows.Cell>>> constants)
      implements Statement {
    /** An INSERT whose constant VALUES, if that is what {@code source} is, are parsed once here. */
    public Insert(String table, List<String> columns, String source) {
      this(table, columns, source, ValuesRows.parse(source));
    }
  }

  /** {@code UPDATE table SET col = expr, ... [WHERE cond]}. */
  record Update(String table, List<String> columns, List<String> exprs, String where)
      implements Statement {}

  /** {@code DELETE FROM table [WHERE cond]}. */
  record Delete(String table, String where) implements Statement {}

  /** A query (SELECT, VALUES, WITH, set operations) in Calcite-ready text. */
  record Query(String sql) implements Statement {}

  /**
   * A catalog query known to read only always-empty catalogs (see {@link EmptyCatalogQueries}):
   * answered with these columns (all text) and no rows.
   */
  record EmptyCatalogQuery(List<String> columns) implements Statement {}

  /** A value in a recognised client query: the {@code param}-th bound parameter, or a literal. */
  record Arg(int param, String literal) {}

  /**
   * pgjdbc's {@code DatabaseMetaData.getPrimaryKeys} query, filtered by schema and table name when
   * given: answered from the catalog (columns {@link #COLUMNS}).
   */
  record PrimaryKeys(java.util.Optional<Arg> schema, java.util.Optional<Arg> table)
      implements Statement {
    public static final List<String> COLUMNS =
        List.of("TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "COLUMN_NAME", "KEY_SEQ", "PK_NAME");
  }

  /** {@code DROP TABLE|MATERIALIZED VIEW|SOURCE [IF EXISTS] name [CASCADE]}. */
  record Drop(RelationKind kind, String name, boolean ifExists, boolean cascade)
      implements Statement {}

  /** {@code SHOW TABLES|MATERIALIZED VIEWS|SOURCES|JOBS|<parameter>}. */
  record Show(String what) implements Statement {}

  /** {@code SET name = value} / {@code SET name TO value}. */
  record SetVar(String name, String value) implements Statement {}

  /** {@code FLUSH}: wait for the next checkpoint. */
  /**
   * {@code CREATE | ALTER | DROP USER (or ROLE)}: options as {@code UserStatements} reads them
   * ({@code password}: the text given, empty for NULL; {@code superuser}, {@code login}).
   */
  record UserDdl(Kind kind, List<String> names, boolean ifExists, Map<String, String> options)
      implements Statement {
    /** Which statement. */
    public enum Kind {
      CREATE,
      ALTER,
      DROP
    }

    public UserDdl {
      names = List.copyOf(names);
      options = Map.copyOf(options);
    }
  }

  record Flush() implements Statement {}

  /** {@code CANCEL JOBS id, ...}. */
  record CancelJobs(List<Long> ids) implements Statement {}

  /**
   * {@code ALTER MATERIALIZED VIEW name SET BACKFILL_RATE_LIMIT = n | DEFAULT}: change the rate
   * limit of a view still being backfilled; empty means unlimited.
   */
  record AlterBackfillRateLimit(String name, OptionalLong rowsPerSecond) implements Statement {}

  /** {@code EXPLAIN statement}. */
  record Explain(Statement inner) implements Statement {}

  /**
   * {@code COPY table [(columns)] FROM STDIN} in text or CSV format: the rows follow as CopyData.
   *
   * @param columns the target columns, empty for all visible ones
   * @param nullString the text that stands for NULL ({@code \N} in text, empty in CSV)
   */
  record CopyFrom(
      String table,
      List<String> columns,
      boolean csv,
      char delimiter,
      String nullString,
      boolean header)
      implements Statement {}

  /**
   * {@code COPY table [(columns)] | (query) TO STDOUT} in text or CSV format: {@code query}'s rows.
   */
  record CopyTo(String query, boolean csv, char delimiter, String nullString, boolean header)
      implements Statement {}

  /** Accepted and ignored, answered with {@code tag} (DISCARD ALL, RESET, ...). */
  /**
   * {@code DECLARE name CURSOR [WITH HOLD] FOR query}, {@code FETCH}/{@code MOVE [FORWARD] [n |
   * ALL] [FROM] name}, {@code CLOSE name | ALL} (name null).
   *
   * @param count rows to fetch or skip; {@link #ALL} for all that remain
   */
  record Cursor(Kind kind, String name, String query, long count, boolean hold)
      implements Statement {
    public static final long ALL = Long.MAX_VALUE;

    public enum Kind {
      DECLARE,
      FETCH,
      MOVE,
      CLOSE
    }
  }

  record NoOp(String tag) implements Statement {}

  /**
   * {@code BEGIN}/{@code START TRANSACTION}, {@code COMMIT}/{@code END}, {@code ROLLBACK}/{@code
   * ABORT}.
   */
  record Transaction(Kind kind, String tag) implements Statement {
    public enum Kind {
      BEGIN,
      COMMIT,
      ROLLBACK
    }
  }
}
