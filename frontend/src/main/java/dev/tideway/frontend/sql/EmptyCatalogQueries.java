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

  private EmptyCatalogQueries() {}

  /** The result columns when {@code sql} is one of the known always-empty catalog queries. */
  static Optional<List<String>> columns(String sql) {
    String s = sql.strip().replaceAll("\\s+", " ");
    for (Known k : KNOWN) {
      if (s.startsWith(k.prefix()) && s.contains(" FROM " + k.catalog() + " ")) {
        return Optional.of(k.columns());
      }
    }
    return Optional.empty();
  }
}
