package dev.tideway.frontend.sql;

import dev.tideway.common.types.DataType;
import dev.tideway.frontend.meta.RelationKind;
import dev.tideway.frontend.pgwire.PgException;
import dev.tideway.frontend.pgwire.SqlState;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.avatica.util.Quoting;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.ddl.SqlColumnDeclaration;
import org.apache.calcite.sql.ddl.SqlCreateTable;
import org.apache.calcite.sql.ddl.SqlKeyConstraint;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.ddl.SqlDdlParserImpl;
import org.apache.calcite.sql.validate.SqlConformanceEnum;

/**
 * Parses one statement. Whole-statement commands Calcite's grammar lacks (SHOW, SET, FLUSH, CANCEL
 * JOBS, CREATE SOURCE ... WITH, DROP SOURCE, transactions) are recognised here from tokens; DML and
 * CREATE MATERIALIZED VIEW are split into their parts from tokens; CREATE TABLE and every query go
 * through calcite-server's {@code SqlDdlParserImpl} (after {@link PgRewriter}), so syntax errors
 * come back as {@code 42601} with the position Calcite reports.
 *
 * <p>Stateless; all methods are pure functions of the text.
 */
public final class StatementParser {
  /** PostgreSQL-like: unquoted names fold to lower case, "quoted" ones are kept, case-sensitive. */
  public static final SqlParser.Config PARSER =
      SqlParser.config()
          .withParserFactory(SqlDdlParserImpl.FACTORY)
          .withQuoting(Quoting.DOUBLE_QUOTE)
          .withUnquotedCasing(Casing.TO_LOWER)
          .withQuotedCasing(Casing.UNCHANGED)
          .withCaseSensitive(true)
          .withConformance(SqlConformanceEnum.LENIENT);

  /** A statement and, per {@code ?} of its Calcite text, the PostgreSQL parameter number. */
  public record Parsed(Statement statement, List<Integer> paramOrder) {}

  private StatementParser() {}

  /** {@code VALUES} with bare {@code ?} elements cast to their target columns' types. */
  public static String castValuesParams(String source, List<DataType> targetTypes) {
    return Dml.castValuesParams(source, targetTypes.stream().map(SqlTypes::calciteName).toList());
  }

  /** Splits a script into statements. */
  public static List<String> split(String sql) {
    return Lexer.split(sql);
  }

  public static Parsed parse(String sql) {
    sql = ClientCatalogQueries.rewrite(sql);
    PgRewriter.Rewritten rw = PgRewriter.rewrite(sql);
    List<Token> t = significant(Lexer.lex(rw.sql()));
    if (t.isEmpty()) {
      return new Parsed(new Statement.NoOp(""), List.of());
    }
    Statement s = statement(rw.sql(), t, sql);
    return new Parsed(s, rw.paramOrder());
  }

  private static List<Token> significant(List<Token> all) {
    return all.stream().filter(x -> !x.isTrivia()).toList();
  }

  private static String word(List<Token> t, int i) {
    return i < t.size() && t.get(i).kind() == Token.Kind.WORD
        ? t.get(i).text().toUpperCase(Locale.ROOT)
        : "";
  }

  private static Statement statement(String text, List<Token> t, String original) {
    String w0 = word(t, 0);
    return switch (w0) {
      case "SHOW" -> new Statement.Show(joinLower(t.subList(1, t.size())));
      case "SET" -> set(t);
      case "RESET" -> new Statement.NoOp("RESET");
      case "FLUSH", "WAIT" -> new Statement.Flush();
      case "CANCEL" -> cancel(t);
      case "BEGIN", "START" ->
          new Statement.NoOp(w0.equals("BEGIN") ? "BEGIN" : "START TRANSACTION");
      case "COMMIT", "END" -> new Statement.NoOp("COMMIT");
      case "ROLLBACK", "ABORT" -> new Statement.NoOp("ROLLBACK");
      case "DISCARD" -> new Statement.NoOp("DISCARD ALL");
      case "DEALLOCATE" -> new Statement.NoOp("DEALLOCATE");
      case "EXPLAIN" -> explain(text, t, original);
      case "CREATE" -> create(text, t);
      case "DROP" -> drop(t);
      case "INSERT" -> Dml.insert(text, t);
      case "UPDATE" -> Dml.update(text, t);
      case "DELETE" -> Dml.delete(text, t);
      case "SELECT", "VALUES", "WITH", "TABLE" ->
          EmptyCatalogQueries.columns(original)
              .<Statement>map(Statement.EmptyCatalogQuery::new)
              .or(() -> ClientCatalogQueries.primaryKeys(original))
              .orElseGet(() -> query(text));
      case "" -> {
        if (t.get(0).kind() != Token.Kind.LPAREN) {
          throw syntax(t.get(0));
        }
        yield query(text);
      }
      case "ALTER" -> alter(t);
      case "COPY",
          "GRANT",
          "REVOKE",
          "TRUNCATE",
          "VACUUM",
          "ANALYZE",
          "LISTEN",
          "NOTIFY",
          "PREPARE",
          "EXECUTE",
          "DECLARE",
          "FETCH",
          "MERGE",
          "CALL",
          "DO",
          "LOCK",
          "COMMENT" ->
          throw PgException.unsupported(w0 + " statement");
      default -> throw syntax(t.get(0));
    };
  }

  static PgException syntax(Token at) {
    return PgException.error(SqlState.SYNTAX_ERROR, "syntax error at or near \"" + at.text() + "\"")
        .withPosition(at.offset() + 1);
  }

  private static String joinLower(List<Token> t) {
    StringBuilder sb = new StringBuilder();
    for (Token x : t) {
      if (sb.length() > 0 && x.kind() != Token.Kind.DOT && !sb.toString().endsWith(".")) {
        sb.append(' ');
      }
      sb.append(
          x.kind() == Token.Kind.STRING ? x.stringValue() : x.text().toLowerCase(Locale.ROOT));
    }
    return sb.toString();
  }

  private static Statement set(List<Token> t) {
    int i = 1;
    if (word(t, i).equals("SESSION") || word(t, i).equals("LOCAL")) {
      i++;
    }
    if (i >= t.size()) {
      throw PgException.error(SqlState.SYNTAX_ERROR, "syntax error at end of input");
    }
    StringBuilder name = new StringBuilder(t.get(i++).identifier());
    while (i + 1 < t.size() && t.get(i).kind() == Token.Kind.DOT) {
      name.append('.').append(t.get(i + 1).identifier());
      i += 2;
    }
    if (name.toString().equals("time") && word(t, i).equals("ZONE")) {
      name = new StringBuilder("timezone");
      i++;
    } else if (i < t.size() && (t.get(i).isOp("=") || t.get(i).isWord("TO"))) {
      i++;
    } else {
      throw i < t.size()
          ? syntax(t.get(i))
          : PgException.error(SqlState.SYNTAX_ERROR, "syntax error at end of input");
    }
    List<String> values = new ArrayList<>();
    for (; i < t.size(); i++) {
      Token v = t.get(i);
      if (v.kind() == Token.Kind.COMMA) {
        continue;
      }
      values.add(
          v.kind() == Token.Kind.STRING || v.kind() == Token.Kind.E_STRING
              ? v.stringValue()
              : v.text());
    }
    return new Statement.SetVar(name.toString(), String.join(", ", values));
  }

  /** {@code ALTER MATERIALIZED VIEW name SET BACKFILL_RATE_LIMIT = n | DEFAULT}; else 0A000. */
  private static Statement alter(List<Token> t) {
    boolean rateLimit =
        word(t, 1).equals("MATERIALIZED")
            && word(t, 2).equals("VIEW")
            && t.size() >= 8
            && word(t, 4).equals("SET")
            && word(t, 5).equals("BACKFILL_RATE_LIMIT")
            && (t.get(6).isOp("=") || t.get(6).isWord("TO"));
    if (!rateLimit) {
      throw PgException.unsupported(
          "ALTER statement (only ALTER MATERIALIZED VIEW ... SET BACKFILL_RATE_LIMIT)");
    }
    StringBuilder value = new StringBuilder();
    for (Token x : t.subList(7, t.size())) {
      value.append(x.text());
    }
    String v = value.toString();
    if (v.equalsIgnoreCase("DEFAULT")) {
      return new Statement.AlterBackfillRateLimit(t.get(3).identifier(), OptionalLong.empty());
    }
    long n = v.matches("\\d{1,18}") ? Long.parseLong(v) : -1;
    if (n < 0) {
      throw PgException.error(
              SqlState.INVALID_PARAMETER_VALUE,
              "invalid value for BACKFILL_RATE_LIMIT: \"" + v + "\"")
          .withHint("use a non-negative number of rows per second, or DEFAULT");
    }
    return new Statement.AlterBackfillRateLimit(t.get(3).identifier(), OptionalLong.of(n));
  }

  private static Statement cancel(List<Token> t) {
    String w1 = word(t, 1);
    if (!w1.equals("JOBS") && !w1.equals("JOB")) {
      throw t.size() > 1
          ? syntax(t.get(1))
          : PgException.error(SqlState.SYNTAX_ERROR, "syntax error at end of input");
    }
    List<Long> ids = new ArrayList<>();
    for (int i = 2; i < t.size(); i++) {
      Token x = t.get(i);
      if (x.kind() == Token.Kind.NUMBER) {
        ids.add(Long.parseLong(x.text()));
      } else if (x.kind() != Token.Kind.COMMA) {
        throw syntax(x);
      }
    }
    if (ids.isEmpty()) {
      throw PgException.error(SqlState.SYNTAX_ERROR, "CANCEL JOBS needs at least one job id");
    }
    return new Statement.CancelJobs(ids);
  }

  private static Statement explain(String text, List<Token> t, String original) {
    int i = 1;
    while (word(t, i).equals("ANALYZE") || word(t, i).equals("VERBOSE")) {
      i++;
    }
    if (word(t, i).equals("PLAN") && word(t, i + 1).equals("FOR")) {
      i += 2;
    }
    if (i >= t.size()) {
      throw PgException.error(SqlState.SYNTAX_ERROR, "syntax error at end of input");
    }
    Statement inner =
        statement(
            text.substring(t.get(i).offset()),
            significant(Lexer.lex(text.substring(t.get(i).offset()))),
            original);
    if (!(inner instanceof Statement.Query || inner instanceof Statement.CreateMaterializedView)) {
      throw PgException.unsupported("EXPLAIN of " + inner.getClass().getSimpleName());
    }
    return new Statement.Explain(inner);
  }

  private static Statement create(String text, List<Token> t) {
    String w1 = word(t, 1);
    return switch (w1) {
      case "TABLE" -> createTable(text, t);
      case "SOURCE" -> createSource(text, t);
      case "MATERIALIZED" -> createMv(text, t);
      case "VIEW",
          "INDEX",
          "SINK",
          "FUNCTION",
          "SCHEMA",
          "DATABASE",
          "USER",
          "ROLE",
          "SEQUENCE",
          "TYPE",
          "SUBSCRIPTION",
          "CONNECTION",
          "SECRET",
          "UNIQUE",
          "OR",
          "TEMP",
          "TEMPORARY" ->
          throw PgException.unsupported("CREATE " + w1);
      default ->
          throw t.size() > 1
              ? syntax(t.get(1))
              : PgException.error(SqlState.SYNTAX_ERROR, "syntax error at end of input");
    };
  }

  /** Parses text with Calcite's DDL parser, mapping parse errors to 42601. */
  static SqlNode calciteParse(String text) {
    try {
      return SqlParser.create(text, PARSER).parseStmt();
    } catch (SqlParseException e) {
      String msg =
          e.getMessage() == null
              ? "syntax error"
              : e.getMessage().lines().findFirst().orElse("syntax error");
      PgException pe = PgException.error(SqlState.SYNTAX_ERROR, "syntax error: " + msg);
      if (e.getPos() != null && e.getPos().getLineNum() > 0) {
        pe = pe.withPosition(offset(text, e.getPos().getLineNum(), e.getPos().getColumnNum()) + 1);
      }
      throw pe;
    }
  }

  static int offset(String text, int line, int col) {
    int off = 0;
    for (int l = 1; l < line; l++) {
      int nl = text.indexOf('\n', off);
      if (nl < 0) {
        break;
      }
      off = nl + 1;
    }
    return Math.min(text.length(), off + col - 1);
  }

  private static Statement query(String text) {
    calciteParse(text);
    return new Statement.Query(text);
  }

  private static Statement createTable(String text, List<Token> t) {
    boolean ifNotExists = word(t, 2).equals("IF");
    int withAt = -1;
    for (int i = 0; i < t.size(); i++) {
      if (t.get(i).isWord("WITH") || t.get(i).isWord("APPEND") || t.get(i).isWord("FORMAT")) {
        withAt = i;
        break;
      }
    }
    if (withAt >= 0) {
      throw PgException.unsupported(
          "CREATE TABLE with "
              + t.get(withAt).text().toUpperCase(Locale.ROOT)
              + " (connector tables; use CREATE SOURCE)");
    }
    SqlNode node = calciteParse(text);
    if (!(node instanceof SqlCreateTable ct)) {
      throw PgException.error(SqlState.SYNTAX_ERROR, "syntax error in CREATE TABLE");
    }
    if (ct.query != null) {
      throw PgException.unsupported("CREATE TABLE AS");
    }
    List<Statement.ColumnDef> cols = new ArrayList<>();
    List<String> pk = new ArrayList<>();
    for (SqlNode n : ct.columnList == null ? List.<SqlNode>of() : ct.columnList.getList()) {
      if (n instanceof SqlColumnDeclaration c) {
        if (c.expression != null) {
          throw PgException.unsupported("column DEFAULT (column \"" + c.name.getSimple() + "\")");
        }
        cols.add(
            new Statement.ColumnDef(
                c.name.getSimple(),
                dataType(c.dataType),
                !Boolean.TRUE.equals(c.dataType.getNullable())));
      } else if (n instanceof SqlKeyConstraint k) {
        if (!k.getOperator().getName().equals("PRIMARY KEY")) {
          throw PgException.unsupported("UNIQUE constraints");
        }
        for (SqlNode id : (SqlNodeList) k.getOperandList().get(1)) {
          pk.add(((SqlIdentifier) id).getSimple());
        }
      } else {
        throw PgException.unsupported("table element " + n);
      }
    }
    List<Statement.ColumnDef> withPk = new ArrayList<>();
    for (Statement.ColumnDef c : cols) {
      withPk.add(new Statement.ColumnDef(c.name(), c.type(), c.notNull() || pk.contains(c.name())));
    }
    return new Statement.CreateTable(name(ct.name), withPk, pk, ifNotExists);
  }

  static String name(SqlIdentifier id) {
    List<String> names = id.names;
    if (names.size() == 2 && !names.get(0).equals("public")) {
      throw PgException.unsupported("schema \"" + names.get(0) + "\" (only public)");
    }
    return names.get(names.size() - 1);
  }

  static DataType dataType(SqlDataTypeSpec spec) {
    if (spec.getTypeNameSpec() instanceof SqlBasicTypeNameSpec b) {
      String n = b.getTypeName().getSimple().toLowerCase(Locale.ROOT);
      if (n.contains("local_time_zone") || n.contains("tz")) {
        return DataType.TIMESTAMPTZ;
      }
      if ((n.equals("decimal") || n.equals("numeric")) && b.getPrecision() > 0) {
        return DataType.decimal(b.getPrecision(), Math.max(0, b.getScale()));
      }
      return SqlTypes.parseColumnType(n);
    }
    return SqlTypes.parseColumnType(spec.getTypeNameSpec().getTypeName().getSimple());
  }

  private static Statement createMv(String text, List<Token> t) {
    if (!word(t, 2).equals("VIEW")) {
      throw t.size() > 2
          ? syntax(t.get(2))
          : PgException.error(SqlState.SYNTAX_ERROR, "syntax error at end of input");
    }
    int i = 3;
    boolean ifNotExists = false;
    if (word(t, i).equals("IF")) {
      ifNotExists = true;
      i += 3;
    }
    if (i >= t.size()) {
      throw PgException.error(SqlState.SYNTAX_ERROR, "syntax error at end of input");
    }
    String name = t.get(i).identifier();
    i++;
    if (i + 1 < t.size() && t.get(i).kind() == Token.Kind.DOT) {
      name = t.get(i + 1).identifier();
      i += 2;
    }
    if (!word(t, i).equals("AS")) {
      throw i < t.size()
          ? syntax(t.get(i))
          : PgException.error(SqlState.SYNTAX_ERROR, "syntax error at end of input");
    }
    if (i + 1 >= t.size()) {
      throw PgException.error(SqlState.SYNTAX_ERROR, "syntax error at end of input");
    }
    String q = text.substring(t.get(i + 1).offset());
    calciteParse(q);
    return new Statement.CreateMaterializedView(name, q, ifNotExists);
  }

  private static Statement drop(List<Token> t) {
    String w1 = word(t, 1);
    RelationKind kind;
    int i;
    switch (w1) {
      case "TABLE" -> {
        kind = RelationKind.TABLE;
        i = 2;
      }
      case "SOURCE" -> {
        kind = RelationKind.SOURCE;
        i = 2;
      }
      case "MATERIALIZED" -> {
        if (!word(t, 2).equals("VIEW")) {
          throw t.size() > 2
              ? syntax(t.get(2))
              : PgException.error(SqlState.SYNTAX_ERROR, "syntax error at end of input");
        }
        kind = RelationKind.MATERIALIZED_VIEW;
        i = 3;
      }
      case "VIEW", "INDEX", "SINK", "FUNCTION", "SCHEMA", "DATABASE", "USER" ->
          throw PgException.unsupported("DROP " + w1);
      default ->
          throw t.size() > 1
              ? syntax(t.get(1))
              : PgException.error(SqlState.SYNTAX_ERROR, "syntax error at end of input");
    }
    boolean ifExists = false;
    if (word(t, i).equals("IF") && word(t, i + 1).equals("EXISTS")) {
      ifExists = true;
      i += 2;
    }
    if (i >= t.size()) {
      throw PgException.error(SqlState.SYNTAX_ERROR, "syntax error at end of input");
    }
    String name = t.get(i).identifier();
    if (i + 2 < t.size() && t.get(i + 1).kind() == Token.Kind.DOT) {
      name = t.get(i + 2).identifier();
      i += 2;
    }
    boolean cascade = word(t, i + 1).equals("CASCADE");
    return new Statement.Drop(kind, name, ifExists, cascade);
  }

  private static Statement createSource(String text, List<Token> t) {
    return SourceParser.parse(text, t);
  }

  /** {@code key = value} pairs of a {@code WITH (...)} list starting at the open paren. */
  static Map<String, String> withOptions(List<Token> t, int open) {
    Map<String, String> out = new LinkedHashMap<>();
    int i = open + 1;
    while (i < t.size() && t.get(i).kind() != Token.Kind.RPAREN) {
      StringBuilder key = new StringBuilder();
      while (i < t.size() && !t.get(i).isOp("=")) {
        Token k = t.get(i++);
        key.append(
            k.kind() == Token.Kind.STRING
                ? k.stringValue()
                : k.kind() == Token.Kind.DOT ? "." : k.text().toLowerCase(Locale.ROOT));
      }
      i++;
      if (i >= t.size()) {
        throw PgException.error(SqlState.SYNTAX_ERROR, "syntax error at end of input");
      }
      Token v = t.get(i++);
      out.put(
          key.toString(),
          v.kind() == Token.Kind.STRING || v.kind() == Token.Kind.E_STRING
              ? v.stringValue()
              : v.text());
      if (i < t.size() && t.get(i).kind() == Token.Kind.COMMA) {
        i++;
      }
    }
    return out;
  }
}
