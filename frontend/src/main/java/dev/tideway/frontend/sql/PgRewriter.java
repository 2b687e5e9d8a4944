package dev.tideway.frontend.sql;

import dev.tideway.sql.parser.impl.TwSqlParserImpl;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.calcite.sql.parser.SqlAbstractParserImpl;

/**
 * The few token-level rewrites left before the grammar (strings, comments and quoted identifiers
 * are never touched):
 *
 * <ul>
 *   <li>{@code $n} → {@code ?}, remembering the PostgreSQL parameter number of each {@code ?}
 *       ({@link Rewritten#paramOrder}): Calcite numbers parameters by position, the extended
 *       protocol by the number written;
 *   <li>{@code E'a\n'} → a standard literal (Calcite types its own E-strings as UTF-16, which then
 *       do not compare with other strings);
 *   <li>clients' catalog quirks: {@code OPERATOR(pg_catalog.~)} → {@code ~}, {@code COLLATE
 *       pg_catalog.default} dropped;
 *   <li>words Calcite reserves and PostgreSQL does not, used as names: {@code count}, {@code sum},
 *       {@code min}, {@code max}, {@code avg}, {@code value}, {@code one}, {@code rank} when no
 *       {@code (} follows, and any reserved word as the last word of a select item after {@code AS}
 *       ({@code SELECT 1 AS one}), and {@code member} after a {@code .} (psql's {@code m.member}),
 *       are quoted (the grammar itself takes PostgreSQL's unreserved words such as {@code at} or
 *       {@code year} as names: {@code nonReservedKeywordsToAdd} in the parser's config);
 *   <li>{@code SELECT … WHERE} without {@code FROM} reads a one-row {@code VALUES};
 *   <li>a typed literal of a type Calcite has no literal for ({@code BIGINT '38'}) → a cast.
 * </ul>
 *
 * <p>Everything else PostgreSQL-specific ({@code ::}, {@code ~}, {@code INTERVAL '1 hour'},
 * column-level keys, dotted option keys, RisingWave's windows) is in the grammar or {@link
 * PgShuttle}. Stateless.
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
    PgRewriter r = new PgRewriter();
    r.run(tokens);
    String text = String.join("", r.out);
    return new Rewritten(text, List.copyOf(r.params), !text.equals(sql));
  }

  /** Per paren depth: 0 no SELECT open, 1 a SELECT without FROM yet, 2 its FROM seen. */
  private byte[] selectAt = new byte[8];

  private int depth;

  /**
   * Follows parentheses, {@code SELECT} and {@code FROM}; true when {@code tok} is a {@code WHERE}
   * of a {@code SELECT} without {@code FROM} ({@code SELECT 1 WHERE true}), which PostgreSQL allows
   * and Calcite's grammar does not.
   */
  private boolean whereWithoutFrom(List<Token> t, int i, Token tok) {
    if (tok.kind() == Token.Kind.LPAREN) {
      depth++;
      if (depth == selectAt.length) {
        selectAt = java.util.Arrays.copyOf(selectAt, depth * 2);
      }
      selectAt[depth] = 0;
    } else if (tok.kind() == Token.Kind.RPAREN) {
      depth = Math.max(0, depth - 1);
    } else if (tok.isWord("SELECT")) {
      selectAt[depth] = 1;
    } else if (tok.isWord("FROM") && !previous(t, i).isWord("DISTINCT")) {
      selectAt[depth] = selectAt[depth] == 1 ? 2 : selectAt[depth];
    } else if (tok.isWord("WHERE") && selectAt[depth] == 1) {
      selectAt[depth] = 2;
      return true;
    }
    return false;
  }

  private void run(List<Token> t) {
    int i = 0;
    while (i < t.size()) {
      Token tok = t.get(i);
      if (whereWithoutFrom(t, i, tok)) {
        out.add("FROM (VALUES (0)) AS \"?dual\" ");
      }
      if (tok.isWord("OPERATOR") && next(t, i, 1).kind() == Token.Kind.LPAREN) {
        int close = indexOfKind(t, i, Token.Kind.RPAREN);
        out.add(" " + t.get(close - 1).text() + " ");
        i = close + 1;
        continue;
      }
      if (tok.isWord("CURRENT_SCHEMA")) {
        // a function in PostgreSQL, with or without (); a reserved word in Calcite's grammar
        out.add("pg_catalog.pg_current_schema()");
        int after = nextIndex(t, i);
        i =
            after < t.size()
                    && t.get(after).kind() == Token.Kind.LPAREN
                    && next(t, after, 1).kind() == Token.Kind.RPAREN
                ? nextIndex(t, after) + 1
                : i + 1;
        continue;
      }
      int typed = typedTimestamptz(t, i);
      if (typed > i) {
        // TIMESTAMP WITH TIME ZONE '…' / TIMESTAMPTZ '…': Calcite's literal of that type fails in
        // its validator (a ClassCastException); the cast takes PostgreSQL's zone forms
        out.add("CAST(" + t.get(typed).text() + " AS timestamptz)");
        i = typed + 1;
        continue;
      }
      if (tok.kind() == Token.Kind.WORD
          && TYPED_LITERAL_TYPES.contains(tok.text().toUpperCase(Locale.ROOT))
          && next(t, i, 1).kind() == Token.Kind.STRING
          && !previous(t, i).text().equals("::")) {
        // PostgreSQL's typed literal INT '46': Calcite has only DATE/TIME/TIMESTAMP literals
        int literal = nextIndex(t, i);
        out.add("CAST(" + t.get(literal).text() + " AS " + tok.text() + ")");
        i = literal + 1;
        continue;
      }
      if (tok.isWord("COLLATE")) {
        i = skipQualifiedName(t, nextIndex(t, i));
        continue;
      }
      if (tok.kind() == Token.Kind.WORD
          && NAME_WORDS.contains(tok.text().toUpperCase(Locale.ROOT))
          && next(t, i, 1).kind() != Token.Kind.LPAREN) {
        out.add("\"" + tok.text().toLowerCase(Locale.ROOT) + "\"");
        i++;
        continue;
      }
      if (tok.isWord("MEMBER") && previous(t, i).kind() == Token.Kind.DOT) {
        // a qualified column PostgreSQL does not reserve: psql's \du reads m.member
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
        || !RESERVED.isReservedWord(w.text().toUpperCase(Locale.ROOT))) {
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
      List.of("COUNT", "SUM", "MIN", "MAX", "AVG", "VALUE", "ONE", "RANK");

  /** The generated grammar's reserved words. */
  private static final SqlAbstractParserImpl.Metadata RESERVED =
      TwSqlParserImpl.FACTORY.getParser(new StringReader("")).getMetadata();

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

  /** Type names a PostgreSQL typed literal ({@code BIGINT '38'}) may start with here. */
  private static final List<String> TYPED_LITERAL_TYPES =
      List.of(
          "INT",
          "INTEGER",
          "INT2",
          "INT4",
          "INT8",
          "SMALLINT",
          "BIGINT",
          "REAL",
          "FLOAT4",
          "FLOAT8",
          "NUMERIC",
          "DECIMAL",
          "BOOLEAN",
          "BOOL",
          "VARCHAR",
          "TEXT",
          "BYTEA");

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

  private static Token next(List<Token> t, int i, int n) {
    int j = i;
    for (int k = 0; k < n; k++) {
      j = nextIndex(t, j);
    }
    return j < t.size() ? t.get(j) : new Token(Token.Kind.SPACE, "", 0);
  }

  /** The index of the string of a timestamptz literal starting at {@code i}, or -1. */
  private static int typedTimestamptz(List<Token> t, int i) {
    int j;
    if (t.get(i).isWord("TIMESTAMPTZ")) {
      j = nextIndex(t, i);
    } else if (t.get(i).isWord("TIMESTAMP")
        && next(t, i, 1).isWord("WITH")
        && next(t, i, 2).isWord("TIME")
        && next(t, i, 3).isWord("ZONE")) {
      j = i;
      for (int k = 0; k < 4; k++) {
        j = nextIndex(t, j);
      }
    } else {
      return -1;
    }
    return j < t.size() && t.get(j).kind() == Token.Kind.STRING ? j : -1;
  }

  private static Token previous(List<Token> t, int i) {
    int j = i - 1;
    while (j >= 0 && t.get(j).isTrivia()) {
      j--;
    }
    return j >= 0 ? t.get(j) : new Token(Token.Kind.SPACE, "", 0);
  }

  private static int nextIndex(List<Token> t, int i) {
    int j = i + 1;
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
