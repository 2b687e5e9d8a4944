package dev.tideway.frontend.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Rewrites PostgreSQL-only syntax into text Calcite's parser accepts, token by token (strings,
 * comments and quoted identifiers are never touched):
 *
 * <ul>
 *   <li>{@code OPERATOR(pg_catalog.~)} → {@code ~}; {@code COLLATE pg_catalog.default} dropped;
 *   <li>{@code E'a\n'} → a standard literal; {@code $n} → {@code ?} (see {@link #paramOrder});
 *   <li>{@code x::type} → {@code CAST(x AS type)} with PostgreSQL type names mapped, and {@code
 *       ::regclass}/{@code ::regtype} to catalog lookup functions;
 *   <li>{@code a ~ b}, {@code !~}, {@code ~*}, {@code !~*} → {@code pg_regex_match(a, b, flags)};
 *   <li>{@code INTERVAL '1 hour'} (units in the string) → Calcite's {@code INTERVAL '1' HOUR(10)}
 *       ({@link PgIntervals});
 *   <li>in {@code CREATE TABLE}, a column-level {@code PRIMARY KEY} → a table-level one.
 * </ul>
 *
 * <p>The left operand of {@code ::} and {@code ~} is the primary right before it (a literal, a
 * possibly qualified name, a parenthesised expression or a function call), which is how these
 * operators bind in practice; their right operand of {@code ~} is the primary after it.
 */
final class PgRewriter {
  /**
   * The text for Calcite and, per {@code ?} in order, the PostgreSQL parameter number (1-based).
   */
  record Rewritten(String sql, List<Integer> paramOrder, boolean changed) {}

  private final List<String> out = new ArrayList<>();
  private final List<Integer> params = new ArrayList<>();

  private PgRewriter() {}

  static Rewritten rewrite(String sql) {
    List<Token> tokens = new ArrayList<>();
    for (Token t : Lexer.lex(sql)) {
      tokens.add(t.kind() == Token.Kind.COMMENT ? new Token(Token.Kind.SPACE, " ", t.offset()) : t);
    }
    tokens = CreateTableRewrite.apply(tokens);
    PgRewriter r = new PgRewriter();
    r.run(tokens);
    String text = String.join("", r.out);
    return new Rewritten(text, List.copyOf(r.params), !text.equals(sql));
  }

  private void run(List<Token> t) {
    int i = 0;
    while (i < t.size()) {
      Token tok = t.get(i);
      if (tok.isWord("OPERATOR") && next(t, i, 1).kind() == Token.Kind.LPAREN) {
        int close = indexOfKind(t, i, Token.Kind.RPAREN);
        Token op = t.get(close - 1);
        i = regexOrOp(t, close + 1, op.text());
        continue;
      }
      if (tok.isWord("generate_series") && next(t, i, 1).kind() == Token.Kind.LPAREN) {
        i = generateSeries(t, i);
        continue;
      }
      if ((tok.isWord("TUMBLE") || tok.isWord("HOP")) && isWindowCall(t, i)) {
        i = windowCall(t, i);
        continue;
      }
      if (tok.isWord("INTERVAL")
          && next(t, i, 1).kind() == Token.Kind.STRING
          && !isIntervalQualifier(next(t, i, 2))) {
        String lit = next(t, i, 1).text();
        out.add(PgIntervals.toCalcite(lit.substring(1, lit.length() - 1).replace("''", "'")));
        i = nextIndex(t, i) + 1;
        continue;
      }
      if (tok.isWord("COLLATE")) {
        i = skipQualifiedName(t, nextIndex(t, i));
        continue;
      }
      if (tok.kind() == Token.Kind.OP && tok.text().equals("::")) {
        i = cast(t, nextIndex(t, i));
        continue;
      }
      if (tok.kind() == Token.Kind.OP && tok.text().matches("!?~\\*?")) {
        i = regexOrOp(t, i + 1, tok.text());
        continue;
      }
      if (tok.kind() == Token.Kind.WORD
          && NAME_WORDS.contains(tok.text().toUpperCase(Locale.ROOT))
          && next(t, i, 1).kind() != Token.Kind.LPAREN) {
        out.add("\"" + tok.text().toLowerCase(Locale.ROOT) + "\"");
        i++;
        continue;
      }
      if (tok.isWord("AS") && isReservedAlias(t, i)) {
        Token alias = next(t, i, 1);
        out.add(tok.text() + " \"" + alias.text().toLowerCase(Locale.ROOT) + "\"");
        i = nextIndex(t, i) + 1;
        continue;
      }
      out.add(emit(tok));
      i++;
    }
  }

  /**
   * {@code AS one}: PostgreSQL takes any word as a column label after {@code AS}, Calcite not its
   * reserved words ({@code one}, {@code value}, {@code year}, ...), so such an alias is quoted —
   * when the word ends the select item (a comma, a clause keyword, {@code ;} or the end follows),
   * which keeps {@code CAST(x AS date)} and {@code AS SELECT} as they are.
   */
  private static boolean isReservedAlias(List<Token> t, int i) {
    Token w = next(t, i, 1);
    if (w.kind() != Token.Kind.WORD
        || !CALCITE_RESERVED.isReservedWord(w.text().toUpperCase(Locale.ROOT))) {
      return false;
    }
    Token after = next(t, i, 2);
    return after.text().isEmpty()
        || after.kind() == Token.Kind.COMMA
        || after.kind() == Token.Kind.SEMI
        || after.isWord("FROM")
        || (after.kind() == Token.Kind.WORD
            && NOT_ALIASES.contains(after.text().toUpperCase(Locale.ROOT)));
  }

  /**
   * Calcite reserves these; PostgreSQL takes them as names when no {@code (} follows (a view's
   * {@code count(*)} column is "count"; {@code value} and {@code one} are common column names).
   */
  private static final List<String> NAME_WORDS =
      List.of("COUNT", "SUM", "MIN", "MAX", "AVG", "VALUE", "ONE");

  private static final org.apache.calcite.sql.parser.SqlAbstractParserImpl.Metadata
      CALCITE_RESERVED =
          org.apache.calcite.sql.parser.ddl.SqlDdlParserImpl.FACTORY
              .getParser(new java.io.StringReader(""))
              .getMetadata();

  /** A SQL-standard interval qualifier's first word: the literal is already in Calcite's form. */
  private static boolean isIntervalQualifier(Token x) {
    return x.kind() == Token.Kind.WORD
        && List.of("YEAR", "MONTH", "DAY", "HOUR", "MINUTE", "SECOND")
            .contains(x.text().toUpperCase(Locale.ROOT));
  }

  private static boolean isNameToken(Token x) {
    return x.kind() == Token.Kind.WORD || x.kind() == Token.Kind.QUOTED_IDENT;
  }

  /** {@code TUMBLE|HOP ( name , name ,}: RisingWave's window table function in FROM. */
  private static boolean isWindowCall(List<Token> t, int i) {
    return next(t, i, 1).kind() == Token.Kind.LPAREN
        && isNameToken(next(t, i, 2))
        && next(t, i, 3).kind() == Token.Kind.COMMA
        && isNameToken(next(t, i, 4))
        && next(t, i, 5).kind() == Token.Kind.COMMA;
  }

  /**
   * RisingWave's {@code TUMBLE(t, col, size)} / {@code HOP(t, col, slide, size)} → Calcite's {@code
   * TUMBLE(TABLE t, DESCRIPTOR(col), ...)}, so that batch queries (and views evaluated in batch)
   * run them too; the stream planner accepts either form.
   */
  private int windowCall(List<Token> t, int i) {
    out.add(t.get(i).text() + "(TABLE " + next(t, i, 2).text());
    out.add(", DESCRIPTOR(" + next(t, i, 4).text() + "),");
    int j = i;
    for (int k = 0; k < 5; k++) {
      j = nextIndex(t, j);
    }
    return j + 1;
  }

  private static final List<String> NOT_ALIASES =
      List.of(
          "WHERE",
          "JOIN",
          "ON",
          "CROSS",
          "INNER",
          "LEFT",
          "RIGHT",
          "FULL",
          "GROUP",
          "ORDER",
          "LIMIT",
          "OFFSET",
          "UNION",
          "EXCEPT",
          "INTERSECT",
          "HAVING",
          "WINDOW",
          "NATURAL",
          "USING");

  /**
   * PostgreSQL names the single column of {@code generate_series(...) AS g} after the alias;
   * Calcite names it {@code generate_series}: add the column alias, {@code AS g(g)}.
   */
  private int generateSeries(List<Token> t, int i) {
    int open = nextIndex(t, i);
    int close = matching(t, open);
    out.add(t.get(i).text());
    PgRewriter inner = new PgRewriter();
    inner.run(t.subList(i + 1, close + 1));
    params.addAll(inner.params);
    out.addAll(inner.out);
    int j = nextIndex(t, close);
    if (j < t.size() && t.get(j).isWord("AS")) {
      j = nextIndex(t, j);
    }
    if (j < t.size()
        && (t.get(j).kind() == Token.Kind.WORD || t.get(j).kind() == Token.Kind.QUOTED_IDENT)
        && !NOT_ALIASES.contains(t.get(j).text().toUpperCase(Locale.ROOT))
        && (nextIndex(t, j) >= t.size() || t.get(nextIndex(t, j)).kind() != Token.Kind.LPAREN)) {
      out.add(" AS " + t.get(j).text() + "(" + t.get(j).text() + ")");
      return j + 1;
    }
    return close + 1;
  }

  private String emit(Token tok) {
    return switch (tok.kind()) {
      case E_STRING -> "'" + tok.stringValue().replace("'", "''") + "'";
      case PARAM -> {
        params.add(Integer.parseInt(tok.text().substring(1)));
        yield "?";
      }
      default -> tok.text();
    };
  }

  private int regexOrOp(List<Token> t, int i, String op) {
    if (!op.matches("!?~\\*?")) {
      out.add(" " + op + " ");
      return i;
    }
    String left = popPrimary();
    int j = i;
    while (j < t.size() && t.get(j).isTrivia()) {
      j++;
    }
    // the right operand: one primary (a literal, name, call or parenthesised expression)
    int end = endOfPrimary(t, j);
    PgRewriter inner = new PgRewriter();
    inner.run(t.subList(j, end));
    params.addAll(inner.params);
    String right = String.join("", inner.out);
    // skip a COLLATE clause right after the pattern
    int k = end;
    while (k < t.size() && t.get(k).isTrivia()) {
      k++;
    }
    if (k < t.size() && t.get(k).isWord("COLLATE")) {
      end = skipQualifiedName(t, nextIndex(t, k));
    }
    String call = "pg_regex_match(" + left + ", " + right + ", " + (op.endsWith("*") ? 1 : 0) + ")";
    out.add(op.startsWith("!") ? "(NOT " + call + ")" : call);
    return end;
  }

  /** Index after the primary starting at {@code j}. */
  private static int endOfPrimary(List<Token> t, int j) {
    if (j >= t.size()) {
      return j;
    }
    Token first = t.get(j);
    int i = j + 1;
    if (first.kind() == Token.Kind.LPAREN) {
      return matching(t, j) + 1;
    }
    if (first.kind() == Token.Kind.WORD || first.kind() == Token.Kind.QUOTED_IDENT) {
      while (i + 1 < t.size() && t.get(i).kind() == Token.Kind.DOT) {
        i += 2;
      }
      if (i < t.size() && t.get(i).kind() == Token.Kind.LPAREN) {
        i = matching(t, i) + 1;
      }
    }
    // a trailing ::cast belongs to the primary
    if (i < t.size() && t.get(i).isOp("::")) {
      i = skipType(t, i + 1);
    }
    return i;
  }

  private static int matching(List<Token> t, int open) {
    int depth = 0;
    for (int i = open; i < t.size(); i++) {
      Token.Kind k = t.get(i).kind();
      if (k == Token.Kind.LPAREN) {
        depth++;
      } else if (k == Token.Kind.RPAREN && --depth == 0) {
        return i;
      }
    }
    throw Lexer.error("syntax error: unbalanced parenthesis", t.get(open).offset());
  }

  /** Removes and returns the primary expression at the end of the output. */
  private String popPrimary() {
    while (!out.isEmpty() && out.get(out.size() - 1).isBlank()) {
      out.remove(out.size() - 1);
    }
    if (out.isEmpty()) {
      throw Lexer.error("syntax error: operator without a left operand", 0);
    }
    int start = out.size() - 1;
    if (out.get(start).equals(")")) {
      int depth = 0;
      for (int i = start; i >= 0; i--) {
        if (out.get(i).equals(")")) {
          depth++;
        } else if (out.get(i).equals("(") && --depth == 0) {
          start = i;
          break;
        }
      }
      if (start > 0 && isName(out.get(start - 1))) {
        start--;
      }
    }
    while (start >= 2 && out.get(start - 1).equals(".") && isName(out.get(start - 2))) {
      start -= 2;
    }
    List<String> tail = out.subList(start, out.size());
    String s = String.join("", tail);
    tail.clear();
    return s;
  }

  private static boolean isName(String s) {
    return !s.isEmpty()
        && (Character.isLetter(s.charAt(0)) || s.charAt(0) == '_' || s.charAt(0) == '"')
        && !List.of("AND", "OR", "NOT", "WHERE", "ON", "SELECT", "WHEN", "THEN", "ELSE", "IN")
            .contains(s.toUpperCase(Locale.ROOT));
  }

  private int cast(List<Token> t, int i) {
    String operand = popPrimary();
    int end = skipType(t, i);
    StringBuilder type = new StringBuilder();
    for (int k = i; k < end; k++) {
      type.append(t.get(k).kind() == Token.Kind.SPACE ? " " : t.get(k).text());
    }
    out.add(castText(operand, type.toString().trim()));
    return end;
  }

  /**
   * Index after a type name: {@code a.b}, {@code double precision}, {@code numeric(10,2)}, {@code
   * int[]}.
   */
  private static int skipType(List<Token> t, int i) {
    int j = nextIndexFrom(t, i);
    if (j >= t.size()) {
      return j;
    }
    j = skipQualifiedName(t, j);
    String first = t.get(nextIndexFrom(t, i)).text().toLowerCase(Locale.ROOT);
    int k = nextIndexFrom(t, j);
    if (first.equals("double") && k < t.size() && t.get(k).isWord("precision")) {
      j = k + 1;
    } else if (first.equals("character") && k < t.size() && t.get(k).isWord("varying")) {
      j = k + 1;
    } else if ((first.equals("timestamp") || first.equals("time"))
        && k < t.size()
        && (t.get(k).isWord("with") || t.get(k).isWord("without"))) {
      j = k;
      for (int words = 0; words < 3; words++) {
        j = nextIndexFrom(t, j) + 1;
      }
    }
    k = nextIndexFrom(t, j);
    if (k < t.size() && t.get(k).kind() == Token.Kind.LPAREN) {
      j = matching(t, k) + 1;
    }
    k = nextIndexFrom(t, j);
    while (k + 1 < t.size()
        && t.get(k).kind() == Token.Kind.LBRACKET
        && t.get(k + 1).kind() == Token.Kind.RBRACKET) {
      j = k + 2;
      k = nextIndexFrom(t, j);
    }
    return j;
  }

  private static String castText(String operand, String pgType) {
    String type = pgType.toLowerCase(Locale.ROOT).replace("pg_catalog.", "").replace("\"", "");
    String base = type.replaceAll("\\(.*", "").trim();
    return switch (base) {
      case "regclass" ->
          operand.startsWith("'")
              ? "pg_regclass_oid(" + operand + ")"
              : "pg_regclass_name(" + operand + ")";
      case "regtype" -> "pg_regtype_name(" + operand + ")";
      case "regproc", "regnamespace" -> "CAST(" + operand + " AS VARCHAR)";
      default -> "CAST(" + operand + " AS " + SqlTypes.calciteTypeName(type) + ")";
    };
  }

  private static Token next(List<Token> t, int i, int n) {
    int j = i;
    for (int k = 0; k < n; k++) {
      j = nextIndex(t, j);
    }
    return j < t.size() ? t.get(j) : new Token(Token.Kind.SPACE, "", 0);
  }

  private static int nextIndex(List<Token> t, int i) {
    return nextIndexFrom(t, i + 1);
  }

  private static int nextIndexFrom(List<Token> t, int i) {
    int j = i;
    while (j < t.size() && t.get(j).isTrivia()) {
      j++;
    }
    return j;
  }

  private static int indexOfKind(List<Token> t, int from, Token.Kind kind) {
    for (int i = from; i < t.size(); i++) {
      if (t.get(i).kind() == kind) {
        return i;
      }
    }
    throw Lexer.error("syntax error: missing " + kind, t.get(from).offset());
  }

  /** Index after {@code name(.name)*} starting at {@code i}. */
  private static int skipQualifiedName(List<Token> t, int i) {
    int j = i + 1;
    while (j + 1 < t.size() && t.get(j).kind() == Token.Kind.DOT) {
      j += 2;
    }
    return j;
  }
}
