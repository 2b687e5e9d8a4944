package dev.tideway.frontend.sql;

import dev.tideway.common.types.DataType;
import dev.tideway.connector.kafka.KafkaSourceConfig;
import dev.tideway.frontend.pgwire.PgException;
import dev.tideway.frontend.pgwire.SqlState;
import dev.tideway.sql.parser.SqlTwCreateSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code CREATE SOURCE [IF NOT EXISTS] name [(col type, ...)] [INCLUDE what [AS col] ...] WITH
 * (connector = '...', ...) [FORMAT x ENCODE y [(options)]]} (parsed by the grammar) to {@link
 * Statement.CreateSource}: the {@code kafka}, {@code datagen} and {@code nexmark} connectors; a
 * nexmark source without columns gets the columns of its {@code nexmark.table.type}. Stateless.
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
    if (connector.equals("kafka")) {
      return kafkaSource(src, cols, with);
    }
    if (!connector.equals("datagen") && !connector.equals("nexmark")) {
      throw PgException.unsupported(
          "connector '" + connector + "' (use 'kafka', 'datagen' or 'nexmark')");
    }
    if (!src.includeColumns().isEmpty()) {
      throw PgException.error(
          SqlState.FEATURE_NOT_SUPPORTED, "INCLUDE is for kafka sources, not " + connector);
    }
    if (cols.isEmpty()) {
      if (!connector.equals("nexmark")) {
        throw PgException.error(SqlState.SYNTAX_ERROR, "a datagen source needs a column list");
      }
      cols.addAll(nexmarkColumns(with.getOrDefault("nexmark.table.type", "")));
    }
    checkOptions(connector, with, cols);
    return new Statement.CreateSource(StatementParser.name(src.name), cols, with);
  }

  /**
   * A kafka source: the declared columns then one per {@code INCLUDE}; the source's properties are
   * the {@code WITH} options plus {@code FORMAT}/{@code ENCODE} and the includes under the keys
   * {@link KafkaSourceConfig} reads, checked by it.
   */
  private static Statement kafkaSource(
      SqlTwCreateSource src, List<Statement.ColumnDef> cols, Map<String, String> with) {
    if (cols.isEmpty()) {
      throw PgException.error(SqlState.SYNTAX_ERROR, "a kafka source needs a column list");
    }
    if (!src.primaryKey().isEmpty()) {
      throw PgException.error(
          SqlState.FEATURE_NOT_SUPPORTED,
          "a source has no primary key; for a keyed topic use CREATE TABLE ... WITH (connector ="
              + " 'kafka', ...) FORMAT UPSERT ENCODE JSON");
    }
    Map<String, String> props = userOptions(with, "source");
    String format = src.format() == null ? "plain" : src.format();
    if (format.equals("upsert")) {
      throw PgException.error(
          SqlState.FEATURE_NOT_SUPPORTED,
          "FORMAT UPSERT needs a primary key: use CREATE TABLE t (..., PRIMARY KEY (...)) WITH"
              + " (connector = 'kafka', ...) FORMAT UPSERT ENCODE JSON");
    }
    props.put("format", format);
    props.put("encode", src.encode() == null ? "json" : src.encode());
    src.encodeOptions().forEach((k, v) -> props.put("encode." + k.toLowerCase(Locale.ROOT), v));
    List<Statement.ColumnDef> all = new ArrayList<>(cols);
    src.includeColumns()
        .forEach(
            (what, alias) -> {
              KafkaSourceConfig.Include inc = include(what);
              String col = alias == null ? inc.defaultColumn() : alias;
              if (props.put("include." + what, col) != null) {
                throw PgException.error(
                    SqlState.SYNTAX_ERROR, "INCLUDE " + what + " is written more than once");
              }
              all.add(new Statement.ColumnDef(col, DataType.parse(inc.sqlType()), false));
            });
    try {
      KafkaSourceConfig.parse(props);
    } catch (IllegalArgumentException e) {
      throw PgException.error(SqlState.INVALID_PARAMETER_VALUE, e.getMessage());
    }
    String name = StatementParser.name(src.name);
    props.put("_source.name", name); // labels the source's metrics and logs
    return new Statement.CreateSource(name, all, props);
  }

  /**
   * The connector properties of {@code CREATE TABLE t (...) WITH (connector = 'kafka', ...) [FORMAT
   * PLAIN | UPSERT ENCODE JSON | CSV]}: the table is fed by the topic (an upsert table by key: the
   * record's key names the row, a null value deletes it, so it needs a primary key).
   */
  static Map<String, String> connectorTable(
      dev.tideway.sql.parser.SqlTwCreateTable ct, List<Statement.ColumnDef> cols, List<String> pk) {
    Map<String, String> with = dev.tideway.sql.parser.TwNodes.options(ct.with);
    String connector = with.getOrDefault("connector", "").toLowerCase(Locale.ROOT);
    if (!connector.equals("kafka")) {
      throw PgException.unsupported(
          "a table fed by connector '" + connector + "' (tables take 'kafka'; use CREATE SOURCE)");
    }
    if (cols.isEmpty()) {
      throw PgException.error(SqlState.SYNTAX_ERROR, "a kafka table needs a column list");
    }
    Map<String, String> props = userOptions(with, "table");
    String format = "plain";
    String encode = "json";
    if (ct.formatEncode != null) {
      format =
          ((org.apache.calcite.sql.SqlIdentifier) ct.formatEncode.get(0))
              .getSimple()
              .toLowerCase(Locale.ROOT);
      encode =
          ((org.apache.calcite.sql.SqlIdentifier) ct.formatEncode.get(1))
              .getSimple()
              .toLowerCase(Locale.ROOT);
      if (ct.formatEncode.size() > 2) {
        dev.tideway.sql.parser.TwNodes.options(
                (org.apache.calcite.sql.SqlNodeList) ct.formatEncode.get(2))
            .forEach((k, v) -> props.put("encode." + k.toLowerCase(Locale.ROOT), v));
      }
    }
    if (format.equals("upsert") && pk.isEmpty()) {
      throw PgException.error(
          SqlState.INVALID_TABLE_DEFINITION,
          "FORMAT UPSERT needs a primary key: the record's key names the row it replaces");
    }
    props.put("format", format);
    props.put("encode", encode);
    try {
      KafkaSourceConfig.parse(props);
    } catch (IllegalArgumentException e) {
      throw PgException.error(SqlState.INVALID_PARAMETER_VALUE, e.getMessage());
    }
    return props;
  }

  /** {@code CREATE SINK}: only the kafka connector; the options are checked here. */
  static Statement createSink(dev.tideway.sql.parser.SqlTwCreateSink k, String query) {
    Map<String, String> with = k.withOptions();
    String connector = with.getOrDefault("connector", "").toLowerCase(Locale.ROOT);
    if (!connector.equals("kafka")) {
      throw PgException.unsupported("a sink to connector '" + connector + "' (sinks take 'kafka')");
    }
    Map<String, String> props = userOptions(with, "sink");
    props.put("format", k.format() == null ? "plain" : k.format());
    props.put("encode", k.encode() == null ? "json" : k.encode());
    try {
      dev.tideway.connector.kafka.KafkaSinkConfig.parse(props);
    } catch (IllegalArgumentException e) {
      throw PgException.error(SqlState.INVALID_PARAMETER_VALUE, e.getMessage());
    }
    return new Statement.CreateSink(StatementParser.name(k.name), query, props, k.ifNotExists);
  }

  /**
   * A kafka object's {@code WITH} options, refusing the keys under which its other clauses are
   * stored ({@code format}, {@code encode…}, {@code include…}) and Tideway's own {@code _} keys.
   */
  private static Map<String, String> userOptions(Map<String, String> with, String what) {
    Map<String, String> props = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : with.entrySet()) {
      String key = e.getKey().toLowerCase(Locale.ROOT);
      if (key.equals("format")
          || key.equals("encode")
          || key.startsWith("encode.")
          || key.startsWith("include.")
          || key.startsWith("_")) {
        throw PgException.error(
                SqlState.INVALID_PARAMETER_VALUE,
                "unknown option \"" + e.getKey() + "\" for a kafka " + what)
            .withHint("FORMAT, ENCODE and INCLUDE are clauses of their own, after WITH (...)");
      }
      props.put(e.getKey(), e.getValue());
    }
    return props;
  }

  private static KafkaSourceConfig.Include include(String what) {
    for (KafkaSourceConfig.Include i : KafkaSourceConfig.Include.values()) {
      if (i.name().equalsIgnoreCase(what)) {
        return i;
      }
    }
    throw PgException.error(
        SqlState.FEATURE_NOT_SUPPORTED,
        "INCLUDE " + what + " (a kafka source can include key, partition, offset, timestamp)");
  }

  /** Options every connector takes. */
  private static final List<String> COMMON_OPTIONS =
      List.of("connector", "source.rows.per.second", "source.chunk.size");

  private static final List<String> DATAGEN_OPTIONS =
      List.of("datagen.split.num", "datagen.seed", "datagen.base.time", "datagen.rows.per.second");

  private static final List<String> DATAGEN_FIELD_OPTIONS =
      List.of("kind", "start", "end", "min", "max", "length", "max_past_ms", "seed");

  private static final List<String> NEXMARK_OPTIONS =
      List.of(
          "nexmark.table.type",
          "nexmark.event.num",
          "nexmark.first.event.rate",
          "nexmark.max.chunk.size",
          "nexmark.seed",
          "nexmark.split.num",
          "nexmark.base.time");

  /** Options whose value is a non-negative integer. */
  private static final List<String> COUNT_OPTIONS =
      List.of(
          "source.rows.per.second",
          "source.chunk.size",
          "datagen.split.num",
          "datagen.rows.per.second",
          "nexmark.event.num",
          "nexmark.split.num",
          "nexmark.max.chunk.size");

  /**
   * An option the connector does not know is an error naming it (a mistyped option ignored would
   * silently change what the source does), as is a count that is not a non-negative integer.
   */
  private static void checkOptions(
      String connector, Map<String, String> with, List<Statement.ColumnDef> cols) {
    List<String> known = new ArrayList<>(COMMON_OPTIONS);
    known.addAll(connector.equals("datagen") ? DATAGEN_OPTIONS : NEXMARK_OPTIONS);
    for (Map.Entry<String, String> e : with.entrySet()) {
      String key = e.getKey().toLowerCase(Locale.ROOT);
      boolean ok = known.contains(key);
      if (!ok && connector.equals("datagen") && key.startsWith("fields.")) {
        int dot = key.lastIndexOf('.');
        String col = key.substring("fields.".length(), Math.max(dot, "fields.".length()));
        ok =
            dot > "fields.".length()
                && DATAGEN_FIELD_OPTIONS.contains(key.substring(dot + 1))
                && cols.stream().anyMatch(c -> c.name().equalsIgnoreCase(col));
      }
      if (!ok) {
        throw PgException.error(
                SqlState.INVALID_PARAMETER_VALUE,
                "unknown option \"" + e.getKey() + "\" for a " + connector + " source")
            .withHint(
                "valid options: "
                    + String.join(", ", known)
                    + (connector.equals("datagen")
                        ? ", fields.<column>.{" + String.join("|", DATAGEN_FIELD_OPTIONS) + "}"
                        : ""));
      }
      if (COUNT_OPTIONS.contains(key)) {
        try {
          if (Long.parseLong(e.getValue().strip()) < 0) {
            throw new NumberFormatException();
          }
        } catch (NumberFormatException nfe) {
          throw PgException.error(
              SqlState.INVALID_PARAMETER_VALUE,
              "option \""
                  + e.getKey()
                  + "\" must be a non-negative integer, got '"
                  + e.getValue()
                  + "'");
        }
      }
    }
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
