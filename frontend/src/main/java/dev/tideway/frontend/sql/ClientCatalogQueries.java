package dev.tideway.frontend.sql;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Catalog queries of psql and pgjdbc that rest on PostgreSQL arrays ({@code int2vector} keys,
 * {@code unnest}, {@code _pg_expandarray}), which the batch engine does not have, recognised by
 * their text (see the catalog corpus in the tests):
 *
 * <ul>
 *   <li>pgjdbc's {@code DatabaseMetaData.getPrimaryKeys} → {@link Statement.PrimaryKeys}, answered
 *       from the catalog's pk;
 *   <li>SQLAlchemy's reflection: the primary key's {@code unnest(ix.indkey)} reads {@code
 *       pg_catalog.tw_pk_columns} instead, and a column's identity options (from sequences, which
 *       do not exist here) are NULL;
 *   <li>psql's {@code \d+ NAME} relation info: its {@code reloptions} column (an array expression)
 *       becomes {@code ''}, since relations here have no storage options.
 * </ul>
 *
 * <p>Pure functions.
 */
final class ClientCatalogQueries {
  private static final Pattern RELOPTIONS =
      Pattern.compile(
          "pg_catalog\\.array_to_string\\(c\\.reloptions\\s*\\|\\|\\s*array\\(select\\s+'toast\\.'"
              + "\\s*\\|\\|\\s*x\\s+from\\s+pg_catalog\\.unnest\\(tc\\.reloptions\\)\\s+x\\),\\s*',"
              + " '\\)");

  private static final Pattern PK_FILTER =
      Pattern.compile(
          "(n\\.nspname|ct\\.relname)\\s*=\\s*(\\$\\d+|'(?:[^']|'')*'|E'(?:[^']|'')*')");

  private ClientCatalogQueries() {}

  /** psql's {@code \\dp}: the row-level policies of a relation (there are none here). */
  private static final Pattern POLICIES =
      Pattern.compile(
          "pg_catalog\\.array_to_string\\(ARRAY\\(\\s*SELECT\\s+polname\\s.*?FROM\\s+"
              + "pg_catalog\\.pg_policy\\s+pol\\s+WHERE\\s+polrelid\\s*=\\s*c\\.oid\\),\\s*E'\\\\n'\\)",
          Pattern.DOTALL);

  /** SQLAlchemy's primary key columns: {@code unnest(ix.indkey)} with their positions. */
  private static final Pattern PK_UNNEST =
      Pattern.compile(
          "SELECT\\s+unnest\\(ix\\.indkey\\)\\s+attnum,\\s*generate_subscripts\\(ix\\.indkey,"
              + "\\s*1\\)\\s+ord\\s+FROM\\s+pg_index\\s+ix\\s+WHERE\\s+ix\\.indrelid\\s*=\\s*"
              + "(\\$\\d+|\\d+)\\s+AND\\s+ix\\.indisprimary",
          Pattern.CASE_INSENSITIVE);

  /** SQLAlchemy's column identity options, from sequences (there are none here). */
  private static final Pattern IDENTITY_OPTIONS =
      Pattern.compile(
          "\\(\\s*SELECT\\s+json_build_object\\(.*?\\)::regclass::oid\\s*\\)\\s+as"
              + " identity_options",
          Pattern.CASE_INSENSITIVE | Pattern.DOTALL);

  private static final Pattern FIRST_SCHEMA =
      Pattern.compile("\\((?:pg_catalog\\.)?current_schemas\\((?i:true|false)\\)\\)\\[1\\]");

  private static final Pattern ANY_SCHEMA =
      Pattern.compile(
          "=\\s*ANY\\s*\\(\\s*(?:pg_catalog\\.)?current_schemas\\((?i:(true|false))\\)\\s*\\)");

  private static final Pattern SCHEMA_RANK =
      Pattern.compile(
          "LEFT JOIN \\(select ns\\.oid as nspoid, ns\\.nspname, r\\.r\\s.*?\\) as sp\\s+ON"
              + " sp\\.nspoid = typnamespace",
          Pattern.DOTALL);

  /**
   * Client catalog queries rest on arrays the batch engine does not have: psql's {@code \d+}
   * relation info loses its {@code reloptions} expression, and pgjdbc's uses of {@code
   * current_schemas(…)} (getSchemas, type lookups) become the search path spelled out ({@code
   * pg_catalog}, {@code public}); others are unchanged.
   */
  static String rewrite(String sql) {
    String out = sql;
    if (out.contains("unnest(ix.indkey)")) {
      out =
          PK_UNNEST
              .matcher(out)
              .replaceFirst(
                  "SELECT ix.attnum, ix.ord FROM pg_catalog.tw_pk_columns ix WHERE ix.indrelid = $1");
    }
    if (out.contains("pg_catalog.pg_policy pol")) {
      out = POLICIES.matcher(out).replaceFirst("''");
    }
    if (out.contains("identity_options")) {
      out = IDENTITY_OPTIONS.matcher(out).replaceFirst("NULL AS identity_options");
    }
    if (out.contains("c.reloptions")) {
      out = RELOPTIONS.matcher(out).replaceFirst("''");
    }
    if (out.contains("current_schemas(")) {
      out = FIRST_SCHEMA.matcher(out).replaceAll("'pg_catalog'");
      Matcher m = ANY_SCHEMA.matcher(out);
      StringBuilder b = new StringBuilder();
      while (m.find()) {
        boolean implicit = m.group(1).equalsIgnoreCase("true");
        m.appendReplacement(b, implicit ? "IN ('pg_catalog', 'public')" : "IN ('public')");
      }
      m.appendTail(b);
      out = b.toString();
      if (SCHEMA_RANK.matcher(out).find()) {
        out =
            SCHEMA_RANK
                .matcher(out)
                .replaceFirst("")
                .replace("ORDER BY sp.r, pg_type.oid DESC", "ORDER BY pg_type.oid DESC");
      }
    }
    return out;
  }

  /** pgjdbc's getPrimaryKeys query as a {@link Statement.PrimaryKeys}, if it is one. */
  static Optional<Statement> primaryKeys(String sql) {
    String s = sql.strip().replaceAll("\\s+", " ");
    if (!s.startsWith("SELECT result.TABLE_CAT AS \"TABLE_CAT\"")
        || !s.contains("FROM pg_catalog.pg_constraint con")
        || !s.contains("con.contype = 'p'")) {
      return Optional.empty();
    }
    Optional<Statement.Arg> schema = Optional.empty();
    Optional<Statement.Arg> table = Optional.empty();
    Matcher m = PK_FILTER.matcher(s);
    int params = 0;
    while (m.find()) {
      String v = m.group(2);
      Statement.Arg arg =
          v.startsWith("$")
              ? new Statement.Arg(params++, null)
              : new Statement.Arg(
                  -1, v.substring(v.indexOf('\'') + 1, v.length() - 1).replace("''", "'"));
      if (m.group(1).equals("n.nspname")) {
        schema = Optional.of(arg);
      } else {
        table = Optional.of(arg);
      }
    }
    return Optional.of(new Statement.PrimaryKeys(schema, table));
  }
}
