package dev.tideway.frontend.syscatalog;

import dev.tideway.common.types.DataType;
import dev.tideway.frontend.pgwire.PgType;
import java.util.Locale;
import java.util.Map;

/**
 * Fixed OIDs clients can see (PostgreSQL's values) and how relations map to OIDs: a relation's OID
 * is its catalog id, which the meta service allocates from 16384 upwards like PostgreSQL's user
 * objects, so it never collides with the fixed ones.
 */
public final class CatalogIds {
  private CatalogIds() {}

  public static final long NS_PG_CATALOG = 11;
  public static final long NS_PUBLIC = 2200;
  public static final long NS_INFORMATION_SCHEMA = 13_000;
  public static final long NS_RW_CATALOG = 13_001;
  public static final long ROLE_ROOT = 10;
  public static final long DB_DEV = 16_384 - 1;

  /** pg_class OIDs of catalog relations ({@code 'pg_class'::regclass}). */
  public static final Map<String, Long> CATALOG_RELATIONS =
      Map.ofEntries(
          Map.entry("pg_type", 1247L),
          Map.entry("pg_attribute", 1249L),
          Map.entry("pg_proc", 1255L),
          Map.entry("pg_class", 1259L),
          Map.entry("pg_database", 1262L),
          Map.entry("pg_am", 2601L),
          Map.entry("pg_attrdef", 2604L),
          Map.entry("pg_constraint", 2606L),
          Map.entry("pg_description", 2609L),
          Map.entry("pg_index", 2610L),
          Map.entry("pg_inherits", 2611L),
          Map.entry("pg_namespace", 2615L),
          Map.entry("pg_rewrite", 2618L),
          Map.entry("pg_policy", 3256L),
          Map.entry("pg_statistic_ext", 3381L));

  /** {@code format_type(oid, typmod)}: PostgreSQL's spelling. */
  public static String formatType(long oid, int typmod) {
    PgType t = PgType.ofOid((int) oid);
    if (t == null) {
      return "???";
    }
    return switch (t) {
      case BOOL -> "boolean";
      case INT2 -> "smallint";
      case INT4 -> "integer";
      case INT8 -> "bigint";
      case FLOAT4 -> "real";
      case FLOAT8 -> "double precision";
      case NUMERIC ->
          typmod > 4
              ? "numeric(" + ((typmod - 4) >> 16) + "," + ((typmod - 4) & 0xffff) + ")"
              : "numeric";
      case VARCHAR -> "character varying";
      case TEXT -> "text";
      case BYTEA -> "bytea";
      case DATE -> "date";
      case TIME -> "time without time zone";
      case TIMESTAMP -> "timestamp without time zone";
      case TIMESTAMPTZ -> "timestamp with time zone";
      case INTERVAL -> "interval";
      default -> t.name().toLowerCase(Locale.ROOT);
    };
  }

  /** The pg_type name ({@code int4}) of a Tideway type. */
  public static String typname(DataType t) {
    return PgType.of(t).name().toLowerCase(Locale.ROOT);
  }
}
