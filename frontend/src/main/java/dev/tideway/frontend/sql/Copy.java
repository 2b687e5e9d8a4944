package dev.tideway.frontend.sql;

import dev.tideway.frontend.pgwire.PgException;
import dev.tideway.frontend.pgwire.SqlState;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code COPY table [(col, ...)] FROM STDIN} with PostgreSQL's options, in the current form ({@code
 * WITH (FORMAT csv, DELIMITER ',', NULL '', HEADER)}) and the old one ({@code [WITH] [DELIMITER
 * [AS] 'x'] [NULL [AS] 'x'] [CSV [HEADER]]}), which psql's {@code \copy} still sends; and {@code
 * COPY table | (query) TO STDOUT} with the same options. Server files are refused with the way to
 * do it instead. Stateless.
 */
final class Copy {
  private Copy() {}

  static Statement parse(List<Token> t) {
    int i = 1;
    String query = null;
    String table = null;
    if (i < t.size() && t.get(i).kind() == Token.Kind.LPAREN) {
      int depth = 0;
      StringBuilder q = new StringBuilder();
      for (i = 1; i < t.size(); i++) {
        Token x = t.get(i);
        depth += x.kind() == Token.Kind.LPAREN ? 1 : x.kind() == Token.Kind.RPAREN ? -1 : 0;
        if (depth == 0) {
          break;
        }
        if (i > 1) {
          q.append(x.text()).append(' ');
        }
      }
      i++;
      query = q.toString().strip();
    } else {
      if (i >= t.size()) {
        throw StatementParser.syntax(t.get(0));
      }
      table = t.get(i++).identifier();
      if (i + 1 < t.size() && t.get(i).kind() == Token.Kind.DOT) {
        table = t.get(i + 1).identifier();
        i += 2;
      }
    }
    List<String> cols = new ArrayList<>();
    if (i < t.size() && t.get(i).kind() == Token.Kind.LPAREN) {
      i++;
      while (i < t.size() && t.get(i).kind() != Token.Kind.RPAREN) {
        if (t.get(i).kind() != Token.Kind.COMMA) {
          cols.add(t.get(i).identifier());
        }
        i++;
      }
      i++;
    }
    boolean to = i < t.size() && t.get(i).isWord("TO");
    if (i >= t.size() || !(to || t.get(i).isWord("FROM"))) {
      throw i < t.size() ? StatementParser.syntax(t.get(i)) : end();
    }
    if (query != null && !to) {
      throw StatementParser.syntax(t.get(i));
    }
    i++;
    if (i >= t.size() || !t.get(i).isWord(to ? "STDOUT" : "STDIN")) {
      throw PgException.unsupported(
              to ? "COPY TO a file on the server" : "COPY FROM a file on the server")
          .withHint(
              to
                  ? "use COPY ... TO STDOUT, which psql's \\copy sends"
                  : "use COPY ... FROM STDIN, which psql's \\copy sends");
    }
    i++;
    boolean csv = false;
    Character delimiter = null;
    String nullString = null;
    boolean header = false;
    if (i < t.size() && t.get(i).isWord("WITH")) {
      i++;
    }
    if (i < t.size() && t.get(i).kind() == Token.Kind.LPAREN) {
      i++;
      while (i < t.size() && t.get(i).kind() != Token.Kind.RPAREN) {
        String opt = t.get(i).text().toUpperCase(Locale.ROOT);
        Token value = i + 1 < t.size() ? t.get(i + 1) : null;
        boolean hasValue =
            value != null && value.kind() != Token.Kind.COMMA && value.kind() != Token.Kind.RPAREN;
        String v = hasValue ? valueText(value) : null;
        switch (opt) {
          case "FORMAT" -> {
            String f = v == null ? "" : v.toLowerCase(Locale.ROOT);
            if (f.equals("csv")) {
              csv = true;
            } else if (!f.equals("text")) {
              throw PgException.unsupported("COPY format \"" + f + "\"")
                  .withHint("use text or csv");
            }
          }
          case "DELIMITER" -> delimiter = single(v);
          case "NULL" -> nullString = v;
          case "HEADER" ->
              header = v == null || v.equalsIgnoreCase("true") || v.equalsIgnoreCase("on");
          default ->
              throw PgException.error(
                  SqlState.SYNTAX_ERROR,
                  "option \"" + opt.toLowerCase(Locale.ROOT) + "\" not recognized");
        }
        i += hasValue ? 2 : 1;
        if (i < t.size() && t.get(i).kind() == Token.Kind.COMMA) {
          i++;
        }
      }
      i++;
    } else {
      while (i < t.size() && t.get(i).kind() != Token.Kind.SEMI) {
        Token w = t.get(i);
        if (w.isWord("CSV")) {
          csv = true;
          i++;
        } else if (w.isWord("HEADER")) {
          header = true;
          i++;
        } else if (w.isWord("DELIMITER") || w.isWord("NULL")) {
          i++;
          if (i < t.size() && t.get(i).isWord("AS")) {
            i++;
          }
          if (i >= t.size()) {
            throw end();
          }
          if (w.isWord("DELIMITER")) {
            delimiter = single(valueText(t.get(i)));
          } else {
            nullString = valueText(t.get(i));
          }
          i++;
        } else if (w.isWord("BINARY")) {
          throw PgException.unsupported("COPY in binary format").withHint("use text or csv");
        } else {
          throw StatementParser.syntax(w);
        }
      }
    }
    if (i < t.size() && t.get(i).kind() != Token.Kind.SEMI) {
      throw StatementParser.syntax(t.get(i));
    }
    char delim = delimiter != null ? delimiter : csv ? ',' : '\t';
    String nulls = nullString != null ? nullString : csv ? "" : "\\N";
    if (to) {
      String q =
          query != null
              ? query
              : "SELECT "
                  + (cols.isEmpty()
                      ? "*"
                      : String.join(", ", cols.stream().map(c -> "\"" + c + "\"").toList()))
                  + " FROM \""
                  + table
                  + "\"";
      return new Statement.CopyTo(q, csv, delim, nulls, header);
    }
    return new Statement.CopyFrom(table, cols, csv, delim, nulls, header);
  }

  private static String valueText(Token v) {
    return v.kind() == Token.Kind.STRING || v.kind() == Token.Kind.E_STRING
        ? v.stringValue()
        : v.text();
  }

  private static char single(String v) {
    if (v == null || v.length() != 1) {
      throw PgException.error(
          SqlState.FEATURE_NOT_SUPPORTED, "COPY delimiter must be a single one-byte character");
    }
    return v.charAt(0);
  }

  private static PgException end() {
    return PgException.error(SqlState.SYNTAX_ERROR, "syntax error at end of input");
  }
}
