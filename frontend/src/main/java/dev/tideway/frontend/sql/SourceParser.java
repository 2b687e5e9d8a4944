package dev.tideway.frontend.sql;

import dev.tideway.common.types.DataType;
import dev.tideway.frontend.pgwire.PgException;
import dev.tideway.frontend.pgwire.SqlState;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code CREATE SOURCE [IF NOT EXISTS] name [(col type, ...)] WITH (connector = '...', ...) [FORMAT
 * x ENCODE y]}. Option keys may contain reserved words after dots ({@code nexmark.table.type}),
 * which is why this is recognised from tokens. A nexmark source without columns gets the columns of
 * its {@code nexmark.table.type}.
 */
final class SourceParser {
  private SourceParser() {}

  static Statement parse(String text, List<Token> t) {
    int i = 2;
    if (t.size() > i && t.get(i).isWord("IF")) {
      i += 3;
    }
    if (i >= t.size()) {
      throw PgException.error(SqlState.SYNTAX_ERROR, "syntax error at end of input");
    }
    String name = t.get(i++).identifier();
    List<Statement.ColumnDef> cols = new ArrayList<>();
    if (i < t.size() && t.get(i).kind() == Token.Kind.LPAREN) {
      int close = close(t, i);
      String inner = text.substring(t.get(i).offset() + 1, t.get(close).offset());
      Statement.CreateTable ct =
          (Statement.CreateTable)
              StatementParser.parse("CREATE TABLE x (" + inner + ")").statement();
      cols.addAll(ct.columns());
      i = close + 1;
    }
    if (i >= t.size()
        || !t.get(i).isWord("WITH")
        || i + 1 >= t.size()
        || t.get(i + 1).kind() != Token.Kind.LPAREN) {
      throw PgException.error(SqlState.SYNTAX_ERROR, "CREATE SOURCE needs WITH (connector = '...')")
          .withPosition(i < t.size() ? t.get(i).offset() + 1 : text.length());
    }
    Map<String, String> with = StatementParser.withOptions(t, i + 1);
    String connector = with.getOrDefault("connector", "").toLowerCase(Locale.ROOT);
    if (!connector.equals("datagen") && !connector.equals("nexmark")) {
      throw PgException.unsupported("connector '" + connector + "' (use 'datagen' or 'nexmark')");
    }
    if (cols.isEmpty()) {
      if (!connector.equals("nexmark")) {
        throw PgException.error(SqlState.SYNTAX_ERROR, "a datagen source needs a column list");
      }
      cols.addAll(nexmarkColumns(with.getOrDefault("nexmark.table.type", "")));
    }
    return new Statement.CreateSource(name, cols, with);
  }

  private static int close(List<Token> t, int open) {
    int depth = 0;
    for (int i = open; i < t.size(); i++) {
      if (t.get(i).kind() == Token.Kind.LPAREN) {
        depth++;
      } else if (t.get(i).kind() == Token.Kind.RPAREN && --depth == 0) {
        return i;
      }
    }
    throw PgException.error(SqlState.SYNTAX_ERROR, "syntax error: unbalanced parenthesis");
  }

  /** The nexmark tables' columns (RisingWave's names). */
  static List<Statement.ColumnDef> nexmarkColumns(String type) {
    String spec =
        switch (type.toLowerCase(Locale.ROOT)) {
          case "person" ->
              "id bigint, name varchar, email_address varchar, credit_card varchar, city varchar,"
                  + " state varchar, date_time timestamp, extra varchar";
          case "auction" ->
              "id bigint, item_name varchar, description varchar, initial_bid bigint, reserve bigint,"
                  + " date_time timestamp, expires timestamp, seller bigint, category bigint, extra varchar";
          case "bid" ->
              "auction bigint, bidder bigint, price bigint, channel varchar, url varchar,"
                  + " date_time timestamp, extra varchar";
          default ->
              throw PgException.error(
                  SqlState.INVALID_PARAMETER_VALUE,
                  "nexmark.table.type must be 'Person', 'Auction' or 'Bid', got '" + type + "'");
        };
    List<Statement.ColumnDef> out = new ArrayList<>();
    for (String c : spec.split(",")) {
      String[] p = c.trim().split(" ");
      out.add(new Statement.ColumnDef(p[0], DataType.parse(p[1]), false));
    }
    return out;
  }
}
