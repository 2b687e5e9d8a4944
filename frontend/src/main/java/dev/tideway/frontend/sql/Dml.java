package dev.tideway.frontend.sql;

import dev.tideway.frontend.pgwire.PgException;
import dev.tideway.frontend.pgwire.SqlState;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits INSERT / UPDATE / DELETE into the parts the session evaluates as queries (the source of an
 * INSERT, the new values and the condition of an UPDATE, the condition of a DELETE). Works on the
 * Calcite-ready text, so parameters stay in order.
 */
final class Dml {
  private Dml() {}

  private static PgException end() {
    return PgException.error(SqlState.SYNTAX_ERROR, "syntax error at end of input");
  }

  private static void rejectTopLevel(List<Token> t, int from, String... words) {
    int depth = 0;
    for (int i = from; i < t.size(); i++) {
      Token x = t.get(i);
      depth += x.kind() == Token.Kind.LPAREN ? 1 : x.kind() == Token.Kind.RPAREN ? -1 : 0;
      for (String w : words) {
        if (depth == 0 && x.isWord(w)) {
          throw PgException.unsupported(
              w.replace('_', ' ') + " in " + t.get(0).text().toUpperCase());
        }
      }
    }
  }

  /** Reads {@code [schema.]name} at i; returns the name and sets {@code next[0]} after it. */
  private static String tableName(List<Token> t, int i, int[] next) {
    if (i >= t.size()) {
      throw end();
    }
    String name = t.get(i).identifier();
    if (i + 2 < t.size() && t.get(i + 1).kind() == Token.Kind.DOT) {
      name = t.get(i + 2).identifier();
      i += 2;
    }
    next[0] = i + 1;
    return name;
  }

  static Statement insert(String text, List<Token> t) {
    if (!t.get(1 < t.size() ? 1 : 0).isWord("INTO")) {
      throw t.size() > 1 ? StatementParser.syntax(t.get(1)) : end();
    }
    int[] next = new int[1];
    String table = tableName(t, 2, next);
    int i = next[0];
    rejectTopLevel(t, i, "RETURNING", "ON");
    List<String> cols = new ArrayList<>();
    if (i < t.size() && t.get(i).kind() == Token.Kind.LPAREN) {
      String first = i + 1 < t.size() ? t.get(i + 1).text().toUpperCase() : "";
      if (!first.equals("SELECT") && !first.equals("VALUES") && !first.equals("WITH")) {
        i++;
        while (i < t.size() && t.get(i).kind() != Token.Kind.RPAREN) {
          if (t.get(i).kind() != Token.Kind.COMMA) {
            cols.add(t.get(i).identifier());
          }
          i++;
        }
        i++;
      }
    }
    if (i >= t.size()) {
      throw end();
    }
    if (t.get(i).isWord("DEFAULT")) {
      throw PgException.unsupported("INSERT ... DEFAULT VALUES");
    }
    String source = text.substring(t.get(i).offset());
    java.util.Optional<List<List<ValuesRows.Cell>>> constants = ValuesRows.parse(source);
    if (constants.isEmpty()) {
      StatementParser.calciteParse(source); // constants need no query engine
    }
    return new Statement.Insert(table, cols, source, constants);
  }

  static Statement update(String text, List<Token> t) {
    int[] next = new int[1];
    String table = tableName(t, 1, next);
    int i = next[0];
    if (i >= t.size() || !t.get(i).isWord("SET")) {
      throw i < t.size() ? StatementParser.syntax(t.get(i)) : end();
    }
    rejectTopLevel(t, i, "FROM", "RETURNING");
    List<String> cols = new ArrayList<>();
    List<String> exprs = new ArrayList<>();
    i++;
    int depth = 0;
    int exprStart = -1;
    String where = null;
    for (; i <= t.size(); i++) {
      Token x = i < t.size() ? t.get(i) : null;
      boolean boundary =
          x == null || (depth == 0 && (x.kind() == Token.Kind.COMMA || x.isWord("WHERE")));
      if (boundary) {
        if (exprStart < 0) {
          throw x == null ? end() : StatementParser.syntax(x);
        }
        int endOff = x == null ? text.length() : x.offset();
        exprs.add(text.substring(t.get(exprStart).offset(), endOff).trim());
        exprStart = -1;
        if (x != null && x.isWord("WHERE")) {
          where = text.substring(x.offset() + x.text().length()).trim();
          break;
        }
        if (x == null) {
          break;
        }
        continue;
      }
      depth += x.kind() == Token.Kind.LPAREN ? 1 : x.kind() == Token.Kind.RPAREN ? -1 : 0;
      if (exprStart < 0 && cols.size() == exprs.size()) {
        cols.add(x.identifier());
        i++;
        if (i >= t.size() || !t.get(i).isOp("=")) {
          throw i < t.size() ? StatementParser.syntax(t.get(i)) : end();
        }
        exprStart = i + 1;
      }
    }
    return new Statement.Update(table, cols, exprs, where);
  }

  static Statement delete(String text, List<Token> t) {
    if (t.size() < 2 || !t.get(1).isWord("FROM")) {
      throw t.size() > 1 ? StatementParser.syntax(t.get(1)) : end();
    }
    int[] next = new int[1];
    String table = tableName(t, 2, next);
    int i = next[0];
    rejectTopLevel(t, i, "USING", "RETURNING");
    String where = null;
    if (i < t.size()) {
      if (!t.get(i).isWord("WHERE")) {
        throw StatementParser.syntax(t.get(i));
      }
      where = text.substring(t.get(i).offset() + 5).trim();
    }
    return new Statement.Delete(table, where);
  }

  /**
   * In {@code VALUES (...), ...}, replaces each element that is a bare {@code ?} with {@code CAST(?
   * AS type)} of its target column, so that Calcite can type the parameter.
   */
  static String castValuesParams(String source, List<String> calciteTypes) {
    List<Token> t = Lexer.lex(source);
    StringBuilder out = new StringBuilder();
    int depth = 0;
    int element = 0;
    boolean values = false;
    for (int i = 0; i < t.size(); i++) {
      Token x = t.get(i);
      if (!values && !x.isTrivia()) {
        if (!x.isWord("VALUES")) {
          return source;
        }
        values = true;
      }
      if (x.kind() == Token.Kind.LPAREN) {
        depth++;
        if (depth == 1) {
          element = 0;
        }
      } else if (x.kind() == Token.Kind.RPAREN) {
        depth--;
      } else if (x.kind() == Token.Kind.COMMA && depth == 1) {
        element++;
      } else if (x.isOp("?") && depth == 1 && element < calciteTypes.size() && bare(t, i)) {
        out.append("CAST(? AS ").append(calciteTypes.get(element)).append(')');
        continue;
      }
      out.append(x.text());
    }
    return out.toString();
  }

  private static boolean bare(List<Token> t, int i) {
    return neighbour(t, i, -1) && neighbour(t, i, 1);
  }

  private static boolean neighbour(List<Token> t, int i, int step) {
    for (int j = i + step; j >= 0 && j < t.size(); j += step) {
      Token.Kind k = t.get(j).kind();
      if (k == Token.Kind.SPACE || k == Token.Kind.COMMENT) {
        continue;
      }
      return k == Token.Kind.COMMA || k == Token.Kind.LPAREN || k == Token.Kind.RPAREN;
    }
    return false;
  }
}
