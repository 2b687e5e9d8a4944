package dev.tideway.frontend.sql;

import dev.tideway.frontend.pgwire.PgException;
import dev.tideway.frontend.pgwire.SqlState;
import java.util.List;
import java.util.Locale;

/**
 * PostgreSQL's cursor statements, as psycopg's server-side cursors and SQLAlchemy's {@code
 * stream_results} send them: {@code DECLARE name [BINARY] [NO SCROLL] CURSOR [WITH[OUT] HOLD] FOR
 * query}, {@code FETCH | MOVE [NEXT | FORWARD [n | ALL] | n | ALL] [FROM | IN] name}, {@code CLOSE
 * name | ALL}. Cursors move forward only: {@code SCROLL} and the backward and absolute directions
 * are refused (0A000). Pure functions.
 */
final class CursorStatements {
  private CursorStatements() {}

  static Statement.Cursor parse(String text, List<Token> t) {
    String w0 = word(t, 0);
    return switch (w0) {
      case "DECLARE" -> declare(text, t);
      case "FETCH", "MOVE" -> fetch(w0, t);
      default -> close(t);
    };
  }

  private static Statement.Cursor declare(String text, List<Token> t) {
    String name = name(t, 1);
    int i = 2;
    boolean hold = false;
    while (i < t.size() && !word(t, i).equals("FOR")) {
      switch (word(t, i)) {
        case "BINARY", "INSENSITIVE", "ASENSITIVE", "NO", "CURSOR", "WITHOUT" -> {}
        case "SCROLL" -> {
          if (!word(t, i - 1).equals("NO")) {
            throw PgException.error(
                SqlState.FEATURE_NOT_SUPPORTED,
                "SCROLL cursors are not supported: cursors here only move forward");
          }
        }
        case "WITH" -> hold = true;
        case "HOLD" -> {}
        default -> throw syntax(t.get(i));
      }
      i++;
    }
    if (i + 1 >= t.size()) {
      throw PgException.error(SqlState.SYNTAX_ERROR, "DECLARE " + name + " needs FOR <query>");
    }
    return new Statement.Cursor(
        Statement.Cursor.Kind.DECLARE, name, text.substring(t.get(i + 1).offset()), 0, hold);
  }

  private static Statement.Cursor fetch(String w0, List<Token> t) {
    int i = 1;
    long count = 1;
    String dir = word(t, i);
    switch (dir) {
      case "NEXT" -> i++;
      case "FORWARD" -> {
        i++;
        if (word(t, i).equals("ALL")) {
          count = Statement.Cursor.ALL;
          i++;
        } else if (i < t.size() && t.get(i).kind() == Token.Kind.NUMBER) {
          count = Long.parseLong(t.get(i++).text());
        }
      }
      case "ALL" -> {
        count = Statement.Cursor.ALL;
        i++;
      }
      case "PRIOR", "FIRST", "LAST", "ABSOLUTE", "RELATIVE", "BACKWARD" ->
          throw PgException.error(
              SqlState.FEATURE_NOT_SUPPORTED,
              w0
                  + " "
                  + dir
                  + " is not supported: cursors here only move forward (NEXT, FORWARD n, ALL)");
      default -> {
        if (i < t.size() && t.get(i).kind() == Token.Kind.NUMBER) {
          count = Long.parseLong(t.get(i++).text());
        }
      }
    }
    if (word(t, i).equals("FROM") || word(t, i).equals("IN")) {
      i++;
    }
    Statement.Cursor.Kind kind =
        w0.equals("FETCH") ? Statement.Cursor.Kind.FETCH : Statement.Cursor.Kind.MOVE;
    return new Statement.Cursor(kind, name(t, i), null, count, false);
  }

  private static Statement.Cursor close(List<Token> t) {
    String name = word(t, 1).equals("ALL") ? null : name(t, 1);
    return new Statement.Cursor(Statement.Cursor.Kind.CLOSE, name, null, 0, false);
  }

  /** A cursor name: a word (folded to lower case) or a quoted identifier. */
  private static String name(List<Token> t, int i) {
    if (i >= t.size()) {
      throw PgException.error(SqlState.SYNTAX_ERROR, "a cursor name is missing");
    }
    Token k = t.get(i);
    return switch (k.kind()) {
      case WORD -> k.text().toLowerCase(Locale.ROOT);
      case QUOTED_IDENT -> k.text().substring(1, k.text().length() - 1).replace("\"\"", "\"");
      default -> throw syntax(k);
    };
  }

  private static String word(List<Token> t, int i) {
    return i < t.size() && t.get(i).kind() == Token.Kind.WORD
        ? t.get(i).text().toUpperCase(Locale.ROOT)
        : "";
  }

  private static PgException syntax(Token k) {
    return PgException.error(SqlState.SYNTAX_ERROR, "syntax error at or near \"" + k.text() + "\"");
  }
}
