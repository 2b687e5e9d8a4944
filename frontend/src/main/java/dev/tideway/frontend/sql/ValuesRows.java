package dev.tideway.frontend.sql;

import dev.tideway.common.types.DataType;
import dev.tideway.frontend.pgwire.PgException;
import dev.tideway.frontend.pgwire.SqlState;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The rows of an INSERT's {@code VALUES} list when every value is a constant: a literal (number,
 * string, {@code NULL}, {@code TRUE}/{@code FALSE}, a negative number) or a parameter. Such a
 * source needs no query engine: the session takes its rows as they are, which is what bulk loads
 * send (a driver's batch rewritten into one multi-row VALUES). Calcite compiled a VALUES of a few
 * thousand rows into one generated method and failed ("Code grows beyond 64 KB"), or overflowed its
 * stack on longer ones. Anything else (an expression, a function call, a cast) is not taken here
 * and goes to the query engine.
 *
 * <p>Parameters are {@code ?} in order (the Calcite-ready text) or {@code $n}.
 */
public final class ValuesRows {
  private ValuesRows() {}

  /** One value: a constant of {@code type}, or the parameter {@code param} (then value is null). */
  public record Cell(Object value, DataType type, int param) {
    public boolean isParam() {
      return param >= 0;
    }
  }

  /** The rows of {@code source} when it is a VALUES list of constants; empty otherwise. */
  public static Optional<List<List<Cell>>> parse(String source) {
    List<Token> t = new ArrayList<>();
    for (Token x : Lexer.lex(source)) {
      if (!x.isTrivia()) {
        t.add(x);
      }
    }
    if (t.isEmpty() || !t.get(0).isWord("VALUES")) {
      return Optional.empty();
    }
    List<List<Cell>> rows = new ArrayList<>();
    int params = 0;
    int i = 1;
    while (true) {
      if (i >= t.size() || t.get(i).kind() != Token.Kind.LPAREN) {
        return Optional.empty();
      }
      i++;
      List<Cell> row = new ArrayList<>();
      while (true) {
        if (i >= t.size()) {
          return Optional.empty();
        }
        boolean negative = false;
        if (t.get(i).isOp("-") && i + 1 < t.size() && t.get(i + 1).kind() == Token.Kind.NUMBER) {
          negative = true;
          i++;
        }
        Token x = t.get(i);
        Cell c;
        if (x.isOp("?")) {
          c = new Cell(null, null, params++);
        } else if (x.kind() == Token.Kind.PARAM) {
          c = new Cell(null, null, Integer.parseInt(x.text().substring(1)) - 1);
        } else if (x.kind() == Token.Kind.NUMBER) {
          c = number(x.text(), negative);
        } else if (x.kind() == Token.Kind.STRING || x.kind() == Token.Kind.E_STRING) {
          c = new Cell(x.stringValue(), DataType.VARCHAR, -1);
        } else if (x.isWord("NULL")) {
          c = new Cell(null, DataType.VARCHAR, -1);
        } else if (x.isWord("TRUE") || x.isWord("FALSE")) {
          c = new Cell(x.isWord("TRUE"), DataType.BOOLEAN, -1);
        } else {
          return Optional.empty();
        }
        if (negative && x.kind() != Token.Kind.NUMBER) {
          return Optional.empty();
        }
        row.add(c);
        i++;
        if (i < t.size() && t.get(i).kind() == Token.Kind.COMMA) {
          i++;
          continue;
        }
        if (i < t.size() && t.get(i).kind() == Token.Kind.RPAREN) {
          i++;
          break;
        }
        return Optional.empty(); // a cast, an operator, ...
      }
      if (!rows.isEmpty() && row.size() != rows.get(0).size()) {
        throw PgException.error(SqlState.SYNTAX_ERROR, "VALUES lists must all be the same length");
      }
      rows.add(row);
      if (i < t.size() && t.get(i).kind() == Token.Kind.COMMA) {
        i++;
        continue;
      }
      if (i < t.size() && t.get(i).kind() == Token.Kind.SEMI) {
        i++;
      }
      return i == t.size() ? Optional.of(rows) : Optional.empty();
    }
  }

  private static Cell number(String text, boolean negative) {
    String s = negative ? "-" + text : text;
    boolean integral = s.chars().allMatch(ch -> ch == '-' || Character.isDigit(ch));
    if (integral && s.length() < 19) {
      long v = Long.parseLong(s);
      return (int) v == v ? new Cell((int) v, DataType.INT, -1) : new Cell(v, DataType.BIGINT, -1);
    }
    return new Cell(new BigDecimal(s), DataType.DECIMAL, -1);
  }
}
