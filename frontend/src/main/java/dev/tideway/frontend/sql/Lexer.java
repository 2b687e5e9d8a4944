package dev.tideway.frontend.sql;

import dev.tideway.frontend.pgwire.PgException;
import dev.tideway.frontend.pgwire.SqlState;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits SQL text into {@link Token}s the way PostgreSQL's scanner does for the constructs Tideway
 * accepts: {@code 'strings'} with doubled quotes, {@code E'escapes'}, {@code "identifiers"}, {@code
 * $n} parameters, {@code --} and {@code /* *}{@code /} comments, and multi-character operators
 * ({@code ::}, {@code !~*}, {@code <>}, {@code ||}, ...). An unterminated string or comment is a
 * {@code 42601} error with its position.
 */
final class Lexer {
  private static final String OP_CHARS = "+-*/<>=~!@#%^&|`?:";

  private Lexer() {}

  static List<Token> lex(String sql) {
    List<Token> out = new ArrayList<>();
    int i = 0;
    int n = sql.length();
    while (i < n) {
      char c = sql.charAt(i);
      int start = i;
      Token.Kind kind;
      if (Character.isWhitespace(c)) {
        while (i < n && Character.isWhitespace(sql.charAt(i))) {
          i++;
        }
        kind = Token.Kind.SPACE;
      } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
        while (i < n && sql.charAt(i) != '\n') {
          i++;
        }
        kind = Token.Kind.COMMENT;
      } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
        int end = sql.indexOf("*/", i + 2);
        if (end < 0) {
          throw error("unterminated /* comment", start);
        }
        i = end + 2;
        kind = Token.Kind.COMMENT;
      } else if ((c == 'E' || c == 'e') && i + 1 < n && sql.charAt(i + 1) == '\'') {
        i = endOfString(sql, i + 1, true);
        kind = Token.Kind.E_STRING;
      } else if (c == '\'') {
        i = endOfString(sql, i, false);
        kind = Token.Kind.STRING;
      } else if (c == '"') {
        i = endOfQuoted(sql, i);
        kind = Token.Kind.QUOTED_IDENT;
      } else if (c == '$' && dollarTagEnd(sql, i) > 0) {
        // $$...$$ or $tag$...$tag$: the body as it is, handed on as a standard literal
        int bodyStart = dollarTagEnd(sql, i);
        String tag = sql.substring(i, bodyStart);
        int close = sql.indexOf(tag, bodyStart);
        if (close < 0) {
          throw error("unterminated dollar-quoted string at or near \"" + tag + "\"", start);
        }
        String body = sql.substring(bodyStart, close);
        i = close + tag.length();
        out.add(new Token(Token.Kind.STRING, "'" + body.replace("'", "''") + "'", start));
        continue;
      } else if (c == '$' && i + 1 < n && Character.isDigit(sql.charAt(i + 1))) {
        i++;
        while (i < n && Character.isDigit(sql.charAt(i))) {
          i++;
        }
        kind = Token.Kind.PARAM;
      } else if (Character.isDigit(c)
          || (c == '.' && i + 1 < n && Character.isDigit(sql.charAt(i + 1)))) {
        i = endOfNumber(sql, i);
        kind = Token.Kind.NUMBER;
      } else if (Character.isLetter(c) || c == '_') {
        while (i < n
            && (Character.isLetterOrDigit(sql.charAt(i))
                || sql.charAt(i) == '_'
                || sql.charAt(i) == '$')) {
          i++;
        }
        kind = Token.Kind.WORD;
      } else if (OP_CHARS.indexOf(c) >= 0) {
        i = endOfOperator(sql, i);
        kind = Token.Kind.OP;
      } else {
        i++;
        kind =
            switch (c) {
              case '(' -> Token.Kind.LPAREN;
              case ')' -> Token.Kind.RPAREN;
              case '[' -> Token.Kind.LBRACKET;
              case ']' -> Token.Kind.RBRACKET;
              case ',' -> Token.Kind.COMMA;
              case ';' -> Token.Kind.SEMI;
              case '.' -> Token.Kind.DOT;
              default -> throw error("syntax error at or near \"" + c + "\"", start);
            };
      }
      out.add(new Token(kind, sql.substring(start, i), start));
    }
    return out;
  }

  /**
   * The index after a dollar quote's opening tag ({@code $$}, {@code $tag$}) at {@code i}; -1 if
   * none.
   */
  private static int dollarTagEnd(String sql, int i) {
    int j = i + 1;
    if (j < sql.length() && sql.charAt(j) == '$') {
      return j + 1;
    }
    if (j >= sql.length() || !(Character.isLetter(sql.charAt(j)) || sql.charAt(j) == '_')) {
      return -1;
    }
    while (j < sql.length() && (Character.isLetterOrDigit(sql.charAt(j)) || sql.charAt(j) == '_')) {
      j++;
    }
    return j < sql.length() && sql.charAt(j) == '$' ? j + 1 : -1;
  }

  private static int endOfString(String sql, int quote, boolean escapes) {
    int i = quote + 1;
    while (i < sql.length()) {
      char c = sql.charAt(i);
      if (escapes && c == '\\') {
        i += 2;
      } else if (c == '\'') {
        if (i + 1 < sql.length() && sql.charAt(i + 1) == '\'') {
          i += 2;
        } else {
          return i + 1;
        }
      } else {
        i++;
      }
    }
    throw error("unterminated quoted string", quote);
  }

  private static int endOfQuoted(String sql, int quote) {
    int i = quote + 1;
    while (i < sql.length()) {
      if (sql.charAt(i) == '"') {
        if (i + 1 < sql.length() && sql.charAt(i + 1) == '"') {
          i += 2;
        } else {
          return i + 1;
        }
      } else {
        i++;
      }
    }
    throw error("unterminated quoted identifier", quote);
  }

  private static int endOfNumber(String sql, int i) {
    int n = sql.length();
    while (i < n && (Character.isDigit(sql.charAt(i)) || sql.charAt(i) == '.')) {
      if (sql.charAt(i) == '.' && i + 1 < n && sql.charAt(i + 1) == '.') {
        break;
      }
      i++;
    }
    if (i < n && (sql.charAt(i) == 'e' || sql.charAt(i) == 'E')) {
      int j = i + 1;
      if (j < n && (sql.charAt(j) == '+' || sql.charAt(j) == '-')) {
        j++;
      }
      if (j < n && Character.isDigit(sql.charAt(j))) {
        i = j;
        while (i < n && Character.isDigit(sql.charAt(i))) {
          i++;
        }
      }
    }
    return i;
  }

  private static int endOfOperator(String sql, int i) {
    int start = i;
    while (i < sql.length() && OP_CHARS.indexOf(sql.charAt(i)) >= 0) {
      // "--" or "/*" inside an operator starts a comment
      if (i > start && (sql.startsWith("--", i) || sql.startsWith("/*", i))) {
        break;
      }
      i++;
    }
    // PostgreSQL: a multi-char operator cannot end in + or - unless it holds ~ ! @ # % ^ & | ` ?
    String op = sql.substring(start, i);
    while (op.length() > 1
        && (op.endsWith("+") || op.endsWith("-"))
        && !op.matches(".*[~!@#%^&|`?].*")) {
      op = op.substring(0, op.length() - 1);
    }
    return start + op.length();
  }

  /** Resolves backslash escapes of an E'...' body. */
  static String unescape(String body) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < body.length(); i++) {
      char c = body.charAt(i);
      if (c == '\'' && i + 1 < body.length() && body.charAt(i + 1) == '\'') {
        sb.append('\'');
        i++;
      } else if (c == '\\' && i + 1 < body.length()) {
        char e = body.charAt(++i);
        sb.append(
            switch (e) {
              case 'n' -> '\n';
              case 't' -> '\t';
              case 'r' -> '\r';
              case 'b' -> '\b';
              case 'f' -> '\f';
              default -> e;
            });
      } else {
        sb.append(c);
      }
    }
    return sb.toString();
  }

  static PgException error(String message, int offset) {
    return PgException.error(SqlState.SYNTAX_ERROR, message).withPosition(offset + 1);
  }

  /** Splits a script into statements at top-level semicolons; blank statements are dropped. */
  static List<String> split(String sql) {
    List<String> out = new ArrayList<>();
    int start = 0;
    boolean content = false;
    for (Token t : lex(sql)) {
      if (t.kind() == Token.Kind.SEMI) {
        if (content) {
          out.add(sql.substring(start, t.offset()).trim());
        }
        start = t.offset() + 1;
        content = false;
      } else if (!t.isTrivia()) {
        content = true;
      }
    }
    if (content) {
      out.add(sql.substring(start).trim());
    }
    return out;
  }
}
