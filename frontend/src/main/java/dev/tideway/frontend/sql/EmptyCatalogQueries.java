package dev.tideway.frontend.sql;

import java.util.List;
import java.util.Optional;

/**
 * Catalog queries psql sends for {@code \d NAME} that Calcite cannot compile (array literals,
 * {@code = any(array)}, {@code unnest(...) s(attnum)}) and that read catalogs which are always
 * empty here (no row-level policies, no extended statistics, no indexes): they are answered with
 * their columns and no rows, which is exactly what PostgreSQL answers for a relation without
 * policies or statistics. Recognised by the text psql 13–17 sends (see the catalog corpus in the
 * tests); any other query over these catalogs goes through Calcite as usual.
 *
 * <p>Pure functions.
 */
final class EmptyCatalogQueries {
  private record Known(String prefix, String catalog, List<String> columns) {}

  private static final List<Known> KNOWN =
      List.of(
          new Known(
              "SELECT pol.polname, pol.polpermissive,",
              "pg_catalog.pg_policy",
              List.of(
                  "polname",
                  "polpermissive",
                  "array_to_string",
                  "pg_get_expr",
                  "pg_get_expr",
                  "cmd")),
          new Known(
              "SELECT oid, stxrelid::pg_catalog.regclass, stxnamespace::pg_catalog.regnamespace",
              "pg_catalog.pg_statistic_ext",
              List.of(
                  "oid",
                  "stxrelid",
                  "nsp",
                  "stxname",
                  "columns",
                  "ndist_enabled",
                  "deps_enabled",
                  "mcv_enabled",
                  "stxstattarget")),
          // pgjdbc's DatabaseMetaData.getIndexInfo (arrays and _pg_expandarray): no indexes here
          new Known(
              "SELECT tmp.TABLE_CAT AS \"TABLE_CAT\",",
              "pg_catalog.pg_class ct JOIN pg_catalog.pg_namespace n ON (ct.relnamespace = n.oid)"
                  + " JOIN pg_catalog.pg_index i",
              List.of(
                  "TABLE_CAT",
                  "TABLE_SCHEM",
                  "TABLE_NAME",
                  "NON_UNIQUE",
                  "INDEX_QUALIFIER",
                  "INDEX_NAME",
                  "TYPE",
                  "ORDINAL_POSITION",
                  "COLUMN_NAME",
                  "ASC_OR_DESC",
                  "CARDINALITY",
                  "PAGES",
                  "FILTER_CONDITION",
                  "REMARKS")),
          // SQLAlchemy's Inspector.get_indexes: there are no secondary indexes here
          new Known(
              "SELECT i.relname as relname, ix.indisunique, ix.indexprs,",
              "pg_class t join pg_index ix on t.oid = ix.indrelid join pg_class i",
              List.of(
                  "relname",
                  "indisunique",
                  "indexprs",
                  "attname",
                  "attnum",
                  "conrelid",
                  "indkey",
                  "indoption",
                  "reloptions",
                  "amname",
                  "pg_get_expr",
                  "indnkeyatts")));

  /**
   * psql's {@code \\d}-family commands over catalogs that are always empty here (or, for casts,
   * operators, languages, tablespaces and settings, hold only built-ins that Tideway does not list
   * as catalog rows): foreign servers, wrappers and tables, domains, conversions, casts, object
   * comments, large objects, languages, event triggers, operators, tablespaces, per-role settings,
   * publications, subscriptions, changed settings, operator classes and families, text search
   * objects, extended statistics, collations.
   */
  private static final List<Known> PSQL =
      List.of(
          new Known(
              "SELECT s.srvname AS \"Name\",",
              "pg_catalog.pg_foreign_server s",
              List.of("Name", "Owner", "Foreign-data wrapper")),
          new Known(
              "SELECT fdw.fdwname AS \"Name\",",
              "pg_catalog.pg_foreign_data_wrapper fdw",
              List.of("Name", "Owner", "Handler", "Validator")),
          new Known(
              "SELECT n.nspname AS \"Schema\", c.relname AS \"Table\", s.srvname AS \"Server\"",
              "pg_catalog.pg_foreign_table ft",
              List.of("Schema", "Table", "Server")),
          new Known(
              "SELECT n.nspname as \"Schema\", t.typname as \"Name\","
                  + " pg_catalog.format_type(t.typbasetype, t.typtypmod) as \"Type\",",
              "pg_catalog.pg_type t",
              List.of("Schema", "Name", "Type", "Collation", "Nullable", "Default", "Check")),
          new Known(
              "SELECT n.nspname AS \"Schema\", c.conname AS \"Name\",",
              "pg_catalog.pg_conversion c",
              List.of("Schema", "Name", "Source", "Destination", "Default?")),
          new Known(
              "SELECT pg_catalog.format_type(castsource, NULL) AS \"Source type\",",
              "pg_catalog.pg_cast c",
              List.of("Source type", "Target type", "Function", "Implicit?")),
          new Known(
              "SELECT DISTINCT tt.nspname AS \"Schema\", tt.name AS \"Name\",",
              "pg_catalog.pg_constraint pgc",
              List.of("Schema", "Name", "Object", "Description")),
          new Known(
              "SELECT oid as \"ID\",",
              "pg_catalog.pg_largeobject_metadata",
              List.of("ID", "Owner", "Description")),
          new Known(
              "SELECT l.lanname AS \"Name\",",
              "pg_catalog.pg_language l",
              List.of("Name", "Owner", "Trusted", "Description")),
          new Known(
              "SELECT evtname as \"Name\", evtevent as \"Event\",",
              "pg_catalog.pg_event_trigger e",
              List.of("Name", "Event", "Owner", "Enabled", "Function", "Tags")),
          new Known(
              "SELECT n.nspname as \"Schema\", o.oprname AS \"Name\",",
              "pg_catalog.pg_operator o",
              List.of(
                  "Schema",
                  "Name",
                  "Left arg type",
                  "Right arg type",
                  "Result type",
                  "Description")),
          new Known(
              "SELECT spcname AS \"Name\",",
              "pg_catalog.pg_tablespace",
              List.of("Name", "Owner", "Location")),
          new Known(
              "SELECT rolname AS \"Role\", datname AS \"Database\",",
              "pg_catalog.pg_db_role_setting s",
              List.of("Role", "Database", "Settings")),
          new Known(
              "SELECT pubname AS \"Name\",",
              "pg_catalog.pg_publication",
              List.of(
                  "Name",
                  "Owner",
                  "All tables",
                  "Inserts",
                  "Updates",
                  "Deletes",
                  "Truncates",
                  "Via root")),
          new Known(
              "SELECT subname AS \"Name\"",
              "pg_catalog.pg_subscription",
              List.of("Name", "Owner", "Enabled", "Publication")),
          new Known(
              "SELECT am.amname AS \"AM\",",
              "pg_catalog.pg_opclass c",
              List.of("AM", "Input type", "Storage type", "Operator class", "Default?")),
          new Known(
              "SELECT am.amname AS \"AM\",",
              "pg_catalog.pg_opfamily f",
              List.of("AM", "Operator family", "Applicable types")),
          new Known(
              "SELECT am.amname AS \"AM\",",
              "pg_catalog.pg_amop o",
              List.of("AM", "Operator family", "Operator", "Strategy", "Purpose")),
          new Known(
              "SELECT am.amname AS \"AM\",",
              "pg_catalog.pg_amproc ap",
              List.of(
                  "AM",
                  "Operator family",
                  "Registered left type",
                  "Registered right type",
                  "Number",
                  "Function")),
          new Known(
              "SELECT n.nspname as \"Schema\", c.cfgname as \"Name\",",
              "pg_catalog.pg_ts_config c",
              List.of("Schema", "Name", "Description")),
          new Known( // \\dF+: the configurations to detail
              "SELECT c.oid, c.cfgname, n.nspname, p.prsname, np.nspname as pnspname",
              "pg_catalog.pg_ts_config c",
              List.of("oid", "cfgname", "nspname", "prsname", "pnspname")),
          new Known( // \\dP: there are no partitioned tables or indexes here
              "SELECT n.nspname as \"Schema\", c.relname as \"Name\","
                  + " pg_catalog.pg_get_userbyid(c.relowner) as \"Owner\", CASE c.relkind WHEN 'p'"
                  + " THEN 'partitioned table' WHEN 'I' THEN 'partitioned index' END as \"Type\",",
              "pg_catalog.pg_class c",
              List.of("Schema", "Name", "Owner", "Type", "Table", "Total size", "Description")),
          new Known( // \\dFp+: the parsers to detail
              "SELECT p.oid, n.nspname, p.prsname FROM",
              "pg_catalog.pg_ts_parser p",
              List.of("oid", "nspname", "prsname")),
          new Known(
              "SELECT n.nspname as \"Schema\", d.dictname as \"Name\",",
              "pg_catalog.pg_ts_dict d",
              List.of("Schema", "Name", "Description")),
          new Known(
              "SELECT n.nspname as \"Schema\", p.prsname as \"Name\",",
              "pg_catalog.pg_ts_parser p",
              List.of("Schema", "Name", "Description")),
          new Known(
              "SELECT n.nspname AS \"Schema\", t.tmplname AS \"Name\",",
              "pg_catalog.pg_ts_template t",
              List.of("Schema", "Name", "Description")),
          new Known(
              "SELECT es.stxnamespace::pg_catalog.regnamespace::pg_catalog.text AS \"Schema\",",
              "pg_catalog.pg_statistic_ext es",
              List.of("Schema", "Name", "Definition", "Ndistinct", "Dependencies", "MCV")),
          new Known(
              "SELECT n.nspname AS \"Schema\", c.collname AS \"Name\",",
              "pg_catalog.pg_collation c,",
              List.of(
                  "Schema",
                  "Name",
                  "Collate",
                  "Ctype",
                  "ICU Locale",
                  "Provider",
                  "Deterministic?")),
          new Known(
              "SELECT s.name AS \"Parameter\", pg_catalog.current_setting(s.name) AS \"Value\"",
              "pg_catalog.pg_settings s",
              List.of("Parameter", "Value")));

  private EmptyCatalogQueries() {}

  /** The result columns when {@code sql} is one of the known always-empty catalog queries. */
  static Optional<List<String>> columns(String sql) {
    String s = sql.strip().replaceAll("\\s+", " ");
    for (Known k :
        s.startsWith("SELECT")
            ? java.util.stream.Stream.concat(KNOWN.stream(), PSQL.stream()).toList()
            : KNOWN) {
      if (s.startsWith(k.prefix()) && s.contains(" FROM " + k.catalog() + " ")) {
        return Optional.of(k.columns());
      }
    }
    return Optional.empty();
  }
}
