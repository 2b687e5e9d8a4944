package dev.tideway.frontend.sql;

import java.util.Locale;

/**
 * One lexical token of PostgreSQL-flavoured SQL.
 *
 * @param kind what it is
 * @param text the exact source text (for strings: with quotes; for E-strings: with the {@code E})
 * @param offset 0-based offset into the statement
 */
record Token(Kind kind, String text, int offset) {
  enum Kind {
    WORD,
    QUOTED_IDENT,
    STRING,
    E_STRING,
    NUMBER,
    PARAM,
    OP,
    LPAREN,
    RPAREN,
    LBRACKET,
    RBRACKET,
    COMMA,
    SEMI,
    DOT,
    SPACE,
    COMMENT
  }

  boolean isWord(String w) {
    return kind == Kind.WORD && text.equalsIgnoreCase(w);
  }

  boolean isOp(String op) {
    return kind == Kind.OP && text.equals(op);
  }

  boolean isTrivia() {
    return kind == Kind.SPACE || kind == Kind.COMMENT;
  }

  /** The identifier as PostgreSQL folds it: unquoted to lower case, quoted unchanged. */
  String identifier() {
    if (kind == Kind.QUOTED_IDENT) {
      return text.substring(1, text.length() - 1).replace("\"\"", "\"");
    }
    return text.toLowerCase(Locale.ROOT);
  }

  /** The value of a string literal (quotes removed, doubled quotes and E-escapes resolved). */
  String stringValue() {
    if (kind == Kind.E_STRING) {
      return Lexer.unescape(text.substring(2, text.length() - 1));
    }
    return text.substring(1, text.length() - 1).replace("''", "'");
  }
}
