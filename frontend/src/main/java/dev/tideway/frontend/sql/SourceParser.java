package dev.tideway.frontend.sql;

import dev.tideway.common.types.DataType;
import dev.tideway.frontend.pgwire.PgException;
import dev.tideway.frontend.pgwire.SqlState;
import dev.tideway.sql.parser.SqlTwCreateSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code CREATE SOURCE [IF NOT EXISTS] name [(col type, ...)] WITH (connector = '...', ...) [FORMAT
 * x ENCODE y]} (parsed by the grammar) to {@link Statement.CreateSource}: only the {@code datagen}
 * and {@code nexmark} connectors; a nexmark source without columns gets the columns of its {@code
 * nexmark.table.type}. Stateless.
 */
final class SourceParser {
  private SourceParser() {}

  static Statement createSource(SqlTwCreateSource src) {
    if (src.with == null) {
      throw PgException.error(
          SqlState.SYNTAX_ERROR, "CREATE SOURCE needs WITH (connector = '...')");
    }
    StatementParser.rejectUnique(src.elements);
    List<Statement.ColumnDef> cols =
        new ArrayList<>(StatementParser.columnDefs(src.columns(), src.primaryKey()));
    Map<String, String> with = src.withOptions();
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
    return new Statement.CreateSource(StatementParser.name(src.name), cols, with);
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
