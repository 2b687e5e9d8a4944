package dev.tideway.frontend.syscatalog;

import dev.tideway.common.types.DataType;
import dev.tideway.frontend.meta.DdlJob;
import dev.tideway.frontend.meta.MetaClient;
import dev.tideway.frontend.meta.Relation;
import dev.tideway.frontend.meta.RelationKind;
import dev.tideway.frontend.pgwire.PgException;
import dev.tideway.frontend.pgwire.PgSession;
import dev.tideway.frontend.pgwire.SqlState;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The rows of {@code SHOW TABLES | MATERIALIZED VIEWS | SOURCES | JOBS | ALL | <parameter>}. */
public final class ShowCommands {
  private ShowCommands() {}

  /** The columns {@code SHOW what} returns (known before running it). */
  public static List<PgSession.Column> columns(String what) {
    if (what.startsWith("create ")) {
      return List.of(
          new PgSession.Column("Name", DataType.VARCHAR),
          new PgSession.Column("Create Sql", DataType.VARCHAR));
    }
    return switch (what) {
      case "tables", "materialized views", "sources", "sinks" ->
          List.of(new PgSession.Column("Name", DataType.VARCHAR));
      case "jobs" ->
          List.of(
              new PgSession.Column("Id", DataType.BIGINT),
              new PgSession.Column("Statement", DataType.VARCHAR),
              new PgSession.Column("Progress", DataType.VARCHAR),
              new PgSession.Column("Create Type", DataType.VARCHAR));
      case "all" ->
          List.of(
              new PgSession.Column("name", DataType.VARCHAR),
              new PgSession.Column("setting", DataType.VARCHAR),
              new PgSession.Column("description", DataType.VARCHAR));
      default -> List.of(new PgSession.Column(parameter(what), DataType.VARCHAR));
    };
  }

  /**
   * The parameter a {@code SHOW} names: PostgreSQL's spellings with spaces ({@code SHOW TRANSACTION
   * ISOLATION LEVEL}, {@code SHOW TIME ZONE}, …) are aliases of their parameters.
   */
  static String parameter(String what) {
    return switch (what) {
      case "transaction isolation level" -> "transaction_isolation";
      case "time zone" -> "timezone";
      case "session authorization" -> "session_authorization";
      default -> what.replace(' ', '_');
    };
  }

  /** Runs {@code SHOW what} against the catalog and the session's variables. */
  public static List<Object[]> rows(String what, MetaClient meta, Map<String, String> vars) {
    List<Object[]> out = new ArrayList<>();
    if (what.startsWith("create ")) {
      out.add(showCreate(what.substring("create ".length()), meta));
      return out;
    }
    switch (what) {
      case "tables" -> names(meta, RelationKind.TABLE, out);
      case "materialized views" -> names(meta, RelationKind.MATERIALIZED_VIEW, out);
      case "sources" -> names(meta, RelationKind.SOURCE, out);
      case "sinks" -> names(meta, RelationKind.SINK, out);
      case "jobs" -> {
        for (DdlJob j : meta.jobs()) {
          out.add(new Object[] {j.ddlId(), j.statement(), j.renderProgress(), j.createType()});
        }
      }
      case "all" ->
          new java.util.TreeMap<>(vars).forEach((k, v) -> out.add(new Object[] {k, v, ""}));
      default -> {
        String v = vars.get(parameter(what));
        if (v == null) {
          throw PgException.error(
              SqlState.UNDEFINED_OBJECT, "unrecognized configuration parameter \"" + what + "\"");
        }
        out.add(new Object[] {v});
      }
    }
    return out;
  }

  /**
   * {@code SHOW CREATE TABLE | MATERIALIZED VIEW | VIEW | SOURCE | SINK name}: the statement that
   * created it, as it was written (RisingWave's columns: {@code Name}, {@code Create Sql}).
   */
  private static Object[] showCreate(String kindAndName, MetaClient meta) {
    for (RelationKind kind : RelationKind.values()) {
      String prefix = kind.sqlName() + " ";
      if (!kindAndName.startsWith(prefix)) {
        continue;
      }
      String qualified = kindAndName.substring(prefix.length()).trim();
      String name = qualified.substring(qualified.lastIndexOf('.') + 1);
      for (Relation r : kind == RelationKind.SINK ? meta.sinks() : meta.relations()) {
        if (r.kind() == kind && r.name().equals(name)) {
          return new Object[] {"public." + r.name(), r.definition()};
        }
      }
      throw PgException.error(
          SqlState.UNDEFINED_TABLE, kind.sqlName() + " \"" + qualified + "\" does not exist");
    }
    throw PgException.error(
        SqlState.SYNTAX_ERROR,
        "SHOW CREATE takes TABLE, MATERIALIZED VIEW, SOURCE or SINK and a name");
  }

  private static void names(MetaClient meta, RelationKind kind, List<Object[]> out) {
    for (Relation r : kind == RelationKind.SINK ? meta.sinks() : meta.relations()) {
      if (r.kind() == kind) {
        out.add(new Object[] {r.name()});
      }
    }
    out.sort((a, b) -> ((String) a[0]).compareTo((String) b[0]));
  }
}
