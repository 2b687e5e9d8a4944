package dev.tideway.frontend.sql;

import dev.tideway.common.types.DataType;
import dev.tideway.frontend.meta.RelationKind;
import dev.tideway.frontend.pgwire.PgException;
import dev.tideway.frontend.pgwire.SqlState;
import dev.tideway.sql.parser.SqlTwCommand;
import dev.tideway.sql.parser.SqlTwCreateSource;
import dev.tideway.sql.parser.SqlTwCreateTable;
import dev.tideway.sql.parser.SqlTwDrop;
import dev.tideway.sql.parser.TwNodes;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlExplain;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlSetOption;
import org.apache.calcite.sql.ddl.SqlColumnDeclaration;
import org.apache.calcite.sql.ddl.SqlCreateMaterializedView;
import org.apache.calcite.sql.ddl.SqlCreateView;
import org.apache.calcite.sql.ddl.SqlKeyConstraint;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;

/**
 * Parses one statement with Tideway's generated grammar ({@link PgParser}, after the few text
 * rewrites of {@link PgRewriter}) and turns the tree into a {@link Statement}. Statements the
 * grammar does not know are answered from their first words: PostgreSQL session commands (RESET,
 * DISCARD, DEALLOCATE, END, ABORT) as no-ops, other PostgreSQL statements (COPY, GRANT, CREATE
 * INDEX, ...) as {@code 0A000} naming the construct. INSERT/UPDATE/DELETE are split into their
 * queries by {@link Dml}. Syntax errors are {@code 42601} with PostgreSQL's message and position.
 *
 * <p>Stateless; all methods are pure functions of the text.
 */
public final class StatementParser {
  /** The parser configuration every SQL text of a session is parsed with. */
  public static final SqlParser.Config PARSER = PgParser.CONFIG;

  /** A statement and, per {@code ?} of its Calcite text, the PostgreSQL parameter number. */
  public record Parsed(Statement statement, List<Integer> paramOrder) {}

  private StatementParser() {}

  /**
   * {@code sql} (parsed text, parameters written {@code ?}) with the k-th {@code ?} cast to the
   * Calcite type {@code types.get(k)} where that is not null: a parameter whose place gives it no
   * type ({@code SELECT ?}) takes the type the client declared for it.
   */
  public static String castParams(String sql, List<String> types) {
    StringBuilder out = new StringBuilder();
    int k = 0;
    for (Token t : Lexer.lex(sql)) {
      if (t.kind() == Token.Kind.OP && t.text().equals("?")) {
        String type = k < types.size() ? types.get(k) : null;
        k++;
        out.append(type == null ? "?" : "CAST(? AS " + type + ")");
      } else {
        out.append(t.text());
      }
    }
    return out.toString();
  }

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
      case "RESET" -> new Statement.NoOp("RESET");
      case "WAIT" -> new Statement.Flush();
      case "END" -> new Statement.Transaction(Statement.Transaction.Kind.COMMIT, "COMMIT");
      case "ABORT" -> new Statement.Transaction(Statement.Transaction.Kind.ROLLBACK, "ROLLBACK");
      case "DISCARD" -> new Statement.NoOp("DISCARD ALL");
      case "DEALLOCATE" -> new Statement.NoOp("DEALLOCATE");
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
      case "CREATE", "DROP", "ALTER" -> {
        if (UserStatements.matches(t)) {
          yield UserStatements.parse(w0, t);
        }
        rejectUnsupportedDdl(w0, t);
        yield fromTree(text, t, original, calciteParse(text));
      }
      case "EXPLAIN" -> {
        int i = 1; // PostgreSQL's options: accepted and ignored (no ANALYZE run here)
        while (word(t, i).equals("ANALYZE") || word(t, i).equals("VERBOSE")) {
          i++;
        }
        yield i > 1
            ? explain(text, t, original, i)
            : fromTree(text, t, original, calciteParse(text));
      }
      case "SHOW", "SET", "FLUSH", "CANCEL", "BEGIN", "START", "COMMIT", "ROLLBACK" ->
          fromTree(text, t, original, calciteParse(text));
      case "COPY" -> Copy.parse(t);
      case "DECLARE", "FETCH", "MOVE", "CLOSE" -> CursorStatements.parse(text, t);
      case "GRANT",
          "REVOKE",
          "TRUNCATE",
          "VACUUM",
          "ANALYZE",
          "LISTEN",
          "NOTIFY",
          "PREPARE",
          "EXECUTE",
          "MERGE",
          "CALL",
          "DO",
          "LOCK",
          "COMMENT" ->
          throw PgException.unsupported(w0 + " statement");
      default -> throw syntax(t.get(0));
    };
  }

  /** DDL the grammar has no production for: 0A000 naming it (not a syntax error). */
  private static void rejectUnsupportedDdl(String w0, List<Token> t) {
    String w1 = word(t, 1);
    if (w0.equals("ALTER")) {
      boolean setsOption =
          w1.equals("MATERIALIZED")
              && word(t, 2).equals("VIEW")
              && t.stream().skip(4).anyMatch(x -> x.isWord("SET"));
      if (!setsOption) {
        throw PgException.unsupported(
            "ALTER statement (only ALTER MATERIALIZED VIEW ... SET BACKFILL_RATE_LIMIT)");
      }
      return;
    }
    boolean known =
        switch (w1) {
          case "TABLE", "SOURCE", "SINK", "MATERIALIZED", "VIEW" -> true;
          default -> false;
        };
    if (!known && t.size() > 1 && t.get(1).kind() == Token.Kind.WORD) {
      throw PgException.unsupported(w0 + " " + w1);
    }
  }

  static PgException syntax(Token at) {
    return PgException.error(SqlState.SYNTAX_ERROR, "syntax error at or near \"" + at.text() + "\"")
        .withPosition(at.offset() + 1);
  }

  private static PgException endOfInput() {
    return PgException.error(SqlState.SYNTAX_ERROR, "syntax error at end of input");
  }

  /**
   * Parses text with the generated grammar. A syntax error is {@code 42601} with PostgreSQL's
   * message (the token at the error, or the end of input), its position, and Calcite's expectation
   * as DETAIL.
   */
  static SqlNode calciteParse(String text) {
    try {
      return SqlParser.create(text, PARSER).parseStmt();
    } catch (SqlParseException e) {
      for (Throwable c = e.getCause(); c != null; c = c.getCause()) {
        if (c instanceof PgException pe) {
          throw pe; // from PgShuttle: an unknown type, an invalid interval
        }
      }
      String detail = e.getMessage() == null ? "" : e.getMessage().lines().findFirst().orElse("");
      if (e.getPos() == null || e.getPos().getLineNum() <= 0) {
        throw PgException.error(SqlState.SYNTAX_ERROR, "syntax error: " + detail);
      }
      int at = offset(text, e.getPos().getLineNum(), e.getPos().getColumnNum());
      Token near = detail.contains("\"<EOF>\"") ? null : tokenAt(text, at);
      PgException pe =
          near == null
              ? PgException.error(SqlState.SYNTAX_ERROR, "syntax error at end of input")
                  .withPosition(text.length() + 1)
              : syntax(near);
      throw detail.isEmpty() ? pe : pe.withDetail(detail);
    }
  }

  /** The significant token covering or following {@code offset}; null at the end of input. */
  private static Token tokenAt(String text, int offset) {
    for (Token x : significant(Lexer.lex(text))) {
      if (x.offset() + x.text().length() > offset && x.kind() != Token.Kind.SEMI) {
        return x;
      }
    }
    return null;
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

  /** The statement a parsed tree stands for. */
  private static Statement fromTree(String text, List<Token> t, String original, SqlNode node) {
    if (node instanceof SqlTwCreateTable ct) {
      return createTable(ct);
    }
    if (node instanceof SqlTwCreateSource src) {
      return SourceParser.createSource(src);
    }
    if (node instanceof dev.tideway.sql.parser.SqlTwCreateSink k) {
      String query =
          k.from != null ? "SELECT * FROM " + k.from : sinkQuery(text, t, afterTopLevelAs(text, t));
      return SourceParser.createSink(k, query);
    }
    if (node instanceof SqlCreateMaterializedView mv) {
      List<String> cols = new ArrayList<>();
      if (mv.columnList != null) {
        mv.columnList.forEach(c -> cols.add(((SqlIdentifier) c).getSimple()));
      }
      return new Statement.CreateMaterializedView(
          name(mv.name), afterTopLevelAs(text, t), mv.ifNotExists, cols);
    }
    if (node instanceof SqlCreateView) {
      throw PgException.unsupported("CREATE VIEW");
    }
    if (node instanceof SqlTwDrop d) {
      return drop(d);
    }
    if (node instanceof SqlSetOption set) {
      return set(set);
    }
    if (node instanceof SqlTwCommand c) {
      return command(text, t, original, c);
    }
    if (node instanceof SqlExplain) {
      return explain(text, t, original, indexAfterWord(t, "FOR"));
    }
    if (node.getKind().belongsTo(SqlKind.QUERY)) {
      return new Statement.Query(text);
    }
    throw PgException.unsupported(node.getKind().sql + " statement");
  }

  private static Statement command(String text, List<Token> t, String original, SqlTwCommand c) {
    return switch (c.verb()) {
      case SHOW -> new Statement.Show(c.showWhat());
      case FLUSH -> new Statement.Flush();
      case CANCEL_JOBS -> {
        if (c.jobIds().isEmpty()) {
          throw PgException.error(SqlState.SYNTAX_ERROR, "CANCEL JOBS needs at least one job id");
        }
        yield new Statement.CancelJobs(c.jobIds());
      }
      case EXPLAIN -> explain(text, t, original, 1);
      case BEGIN -> new Statement.Transaction(Statement.Transaction.Kind.BEGIN, "BEGIN");
      case START_TRANSACTION ->
          new Statement.Transaction(Statement.Transaction.Kind.BEGIN, "START TRANSACTION");
      case COMMIT -> new Statement.Transaction(Statement.Transaction.Kind.COMMIT, "COMMIT");
      case ROLLBACK -> new Statement.Transaction(Statement.Transaction.Kind.ROLLBACK, "ROLLBACK");
      case ALTER_MATERIALIZED_VIEW_SET -> alterMaterializedView(c.args());
    };
  }

  /** {@code SET name = value, ...} (several values joined with ", "); {@code RESET}: a no-op. */
  private static Statement set(SqlSetOption set) {
    if (set.getValue() == null) {
      return new Statement.NoOp("RESET");
    }
    List<String> values = new ArrayList<>();
    for (SqlNode v :
        set.getValue() instanceof SqlNodeList l ? l.getList() : List.of(set.getValue())) {
      values.add(TwNodes.text(v));
    }
    return new Statement.SetVar(
        String.join(".", set.getName().names).toLowerCase(Locale.ROOT), String.join(", ", values));
  }

  /** {@code ALTER MATERIALIZED VIEW name SET BACKFILL_RATE_LIMIT = n | DEFAULT}; else 0A000. */
  private static Statement alterMaterializedView(SqlNodeList args) {
    String view = name((SqlIdentifier) args.get(0));
    String key = TwNodes.text(args.get(1)).toLowerCase(Locale.ROOT);
    if (!key.equals("backfill_rate_limit")) {
      throw PgException.unsupported(
          "ALTER MATERIALIZED VIEW ... SET " + key + " (only BACKFILL_RATE_LIMIT)");
    }
    SqlNode value = args.get(2);
    String v = TwNodes.text(value);
    if (v.equalsIgnoreCase("default")) {
      return new Statement.AlterBackfillRateLimit(view, OptionalLong.empty());
    }
    long n = -1;
    if (value instanceof SqlNumericLiteral num && num.isInteger() && v.matches("\\d{1,18}")) {
      n = Long.parseLong(v);
    }
    if (n < 0) {
      throw PgException.error(
              SqlState.INVALID_PARAMETER_VALUE,
              "invalid value for BACKFILL_RATE_LIMIT: \"" + v + "\"")
          .withHint("use a non-negative number of rows per second, or DEFAULT");
    }
    return new Statement.AlterBackfillRateLimit(view, OptionalLong.of(n));
  }

  /** {@code EXPLAIN statement}: the statement from token {@code from} on, a query or a view. */
  private static Statement explain(String text, List<Token> t, String original, int from) {
    if (from >= t.size()) {
      throw endOfInput();
    }
    String innerText = text.substring(t.get(from).offset());
    Statement inner = statement(innerText, significant(Lexer.lex(innerText)), original);
    if (!(inner instanceof Statement.Query || inner instanceof Statement.CreateMaterializedView)) {
      throw PgException.unsupported("EXPLAIN of " + inner.getClass().getSimpleName());
    }
    return new Statement.Explain(inner);
  }

  private static int indexAfterWord(List<Token> t, String w) {
    for (int i = 0; i < t.size(); i++) {
      if (t.get(i).isWord(w)) {
        return i + 1;
      }
    }
    return t.size();
  }

  /** The text after the first {@code AS} outside parentheses (a view's query). */
  private static String afterTopLevelAs(String text, List<Token> t) {
    int depth = 0;
    for (int i = 0; i + 1 < t.size(); i++) {
      Token x = t.get(i);
      depth += x.kind() == Token.Kind.LPAREN ? 1 : x.kind() == Token.Kind.RPAREN ? -1 : 0;
      if (depth == 0 && x.isWord("AS")) {
        return text.substring(t.get(i + 1).offset());
      }
    }
    throw endOfInput();
  }

  private static Statement createTable(SqlTwCreateTable ct) {
    if (ct.appendOnly || (ct.with == null && ct.formatEncode != null)) {
      String clause = ct.appendOnly ? "APPEND ONLY" : "FORMAT without WITH (connector = ...)";
      throw PgException.unsupported("CREATE TABLE with " + clause);
    }
    if (ct.query != null) {
      throw PgException.unsupported("CREATE TABLE AS");
    }
    rejectUnique(ct.elements);
    List<String> pk = ct.primaryKey();
    List<Statement.ColumnDef> cols = columnDefs(ct.columns(), pk);
    Map<String, String> connector =
        ct.with == null ? Map.of() : SourceParser.connectorTable(ct, cols, pk);
    return new Statement.CreateTable(name(ct.name), cols, pk, ct.ifNotExists, connector);
  }

  /** 0A000 for a UNIQUE constraint (column- or table-level): only primary keys are supported. */
  static void rejectUnique(SqlNodeList elements) {
    if (elements == null) {
      return;
    }
    for (SqlNode n : elements) {
      if (n instanceof SqlKeyConstraint k && k.getOperator().getKind() == SqlKind.UNIQUE) {
        throw PgException.unsupported("UNIQUE constraints");
      }
    }
  }

  /** A sink's query: the text after AS up to its top-level WITH or FORMAT clause. */
  private static String sinkQuery(String text, List<Token> t, String afterAs) {
    int start = text.length() - afterAs.length();
    int depth = 0;
    for (Token x : t) {
      depth += x.kind() == Token.Kind.LPAREN ? 1 : x.kind() == Token.Kind.RPAREN ? -1 : 0;
      if (depth == 0 && x.offset() > start && (x.isWord("WITH") || x.isWord("FORMAT"))) {
        return text.substring(start, x.offset()).strip();
      }
    }
    return afterAs.strip();
  }

  /** Column declarations as {@link Statement.ColumnDef}s; primary-key columns are NOT NULL. */
  static List<Statement.ColumnDef> columnDefs(List<SqlColumnDeclaration> cols, List<String> pk) {
    List<Statement.ColumnDef> out = new ArrayList<>();
    for (SqlColumnDeclaration c : cols) {
      String name = c.name.getSimple();
      if (c.expression != null) {
        throw PgException.unsupported("column DEFAULT (column \"" + name + "\")");
      }
      boolean notNull = !Boolean.TRUE.equals(c.dataType.getNullable()) || pk.contains(name);
      out.add(new Statement.ColumnDef(name, dataType(c.dataType), notNull));
    }
    return out;
  }

  private static Statement drop(SqlTwDrop d) {
    RelationKind kind =
        switch (d.kind()) {
          case TABLE -> RelationKind.TABLE;
          case SOURCE -> RelationKind.SOURCE;
          case MATERIALIZED_VIEW -> RelationKind.MATERIALIZED_VIEW;
          case SINK -> RelationKind.SINK;
          case VIEW -> throw PgException.unsupported("DROP VIEW");
        };
    return new Statement.Drop(kind, name(d.name()), d.ifExists, d.cascade());
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
    List<String> names = spec.getTypeNameSpec().getTypeName().names;
    return SqlTypes.parseColumnType(names.get(names.size() - 1));
  }
}
