package dev.tideway.frontend.syscatalog;

import dev.tideway.frontend.meta.MetaClient;
import dev.tideway.frontend.meta.Relation;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The PostgreSQL catalog functions psql and pgjdbc call, as Calcite scalar functions (static
 * methods; boxed arguments so NULLs pass through). Functions that need the catalog read the
 * session's {@link MetaClient} from {@link #CURRENT}, which the session sets on its connection
 * thread around every query (Calcite's enumerable code runs on the calling thread).
 */
public final class PgFunctions {
  private PgFunctions() {}

  /** The catalog of the query running on this thread. */
  public static final ThreadLocal<MetaClient> CURRENT = new ThreadLocal<>();

  /** The connected user of the session running on this thread (set with {@link #CURRENT}). */
  public static final ThreadLocal<String> USER = new ThreadLocal<>();

  /** The session running on this thread, when it runs behind a connection ({@code pg_stat_*}). */
  public static final ThreadLocal<Backends.Entry> BACKEND = new ThreadLocal<>();

  /** The backend id this connection got (BackendKeyData), as in PostgreSQL. */
  public static Integer pg_backend_pid() {
    Backends.Entry e = BACKEND.get();
    return e == null ? 0 : e.pid();
  }

  /** Cancels the running statement of session {@code pid} on this frontend; false if none. */
  public static Boolean pg_cancel_backend(Integer pid) {
    Backends.Entry e = BACKEND.get();
    return pid == null ? null : e != null && e.owner().cancel(pid);
  }

  /** {@code to_char(timestamp, template)}; see {@link PgToChar} for the patterns. */
  public static String to_char(java.sql.Timestamp t, String template) {
    return t == null || template == null ? null : PgToChar.format(t.toLocalDateTime(), template);
  }

  /** {@code to_char(numeric, template)}. */
  public static String to_char(java.math.BigDecimal v, String template) {
    return v == null || template == null ? null : PgToChar.format(v, template);
  }

  public static Boolean pg_function_is_visible(Long oid) {
    return oid == null ? null : Boolean.TRUE;
  }

  public static Boolean pg_type_is_visible(Long oid) {
    return oid == null ? null : Boolean.TRUE;
  }

  public static String pg_get_function_result(Long oid) {
    return null;
  }

  public static String pg_get_function_arguments(Long oid) {
    return null;
  }

  public static Boolean pg_table_is_visible(Long oid) {
    return oid == null ? null : Boolean.TRUE;
  }

  public static String pg_get_userbyid(Long oid) {
    if (oid == null) {
      return null;
    }
    return oid == CatalogIds.ROLE_ROOT ? "root" : "unknown (OID=" + oid + ")";
  }

  public static String format_type(Long oid, Integer typmod) {
    return oid == null ? null : CatalogIds.formatType(oid, typmod == null ? -1 : typmod);
  }

  public static String pg_get_expr(String expr, Long relid) {
    return expr;
  }

  public static String pg_get_expr(String expr, Long relid, Boolean pretty) {
    return expr;
  }

  public static String pg_get_viewdef(Long oid) {
    Relation r = relation(oid);
    if (r == null) {
      return null;
    }
    String d = r.definition();
    int as = d.toUpperCase(Locale.ROOT).indexOf(" AS ");
    return as < 0 ? d : d.substring(as + 4).trim();
  }

  public static String pg_get_viewdef(Long oid, Boolean pretty) {
    return pg_get_viewdef(oid);
  }

  public static String pg_get_indexdef(Long oid) {
    return null;
  }

  public static String pg_get_indexdef(Long oid, Integer col, Boolean pretty) {
    return null;
  }

  public static String pg_get_constraintdef(Long oid) {
    return null;
  }

  public static String pg_get_constraintdef(Long oid, Boolean pretty) {
    return null;
  }

  public static String col_description(Long oid, Integer col) {
    return null;
  }

  public static String col_description(Long oid, Short col) {
    return null;
  }

  public static String array_to_string(String array, String sep) {
    return array;
  }

  public static String obj_description(Long oid, String catalog) {
    return null;
  }

  /** A shared object's comment: there are none (COMMENT ON is not supported). */
  public static String shobj_description(Long oid, String catalog) {
    return null;
  }

  /** Every user may connect to the one database. */
  public static Boolean has_database_privilege(String database, String privilege) {
    return "dev".equals(database);
  }

  public static Long pg_database_size(String database) {
    return "dev".equals(database) ? 0L : null;
  }

  public static String array_to_string(java.util.List<Object> array, String sep) {
    if (array == null || sep == null) {
      return null;
    }
    StringBuilder sb = new StringBuilder();
    for (Object o : array) {
      if (o != null) {
        sb.append(sb.length() == 0 ? "" : sep).append(o);
      }
    }
    return sb.toString();
  }

  public static String pg_encoding_to_char(Integer enc) {
    return "UTF8";
  }

  public static Boolean pg_relation_is_publishable(Long oid) {
    return Boolean.FALSE;
  }

  public static String pg_size_pretty(Long bytes) {
    return bytes == null ? null : bytes + " bytes";
  }

  public static Long pg_table_size(Long oid) {
    return 0L;
  }

  public static String current_database() {
    return "dev";
  }

  public static String current_schema() {
    return "public";
  }

  public static String version() {
    return "PostgreSQL 13.14.0 (Tideway)";
  }

  public static String quote_ident(String s) {
    if (s == null) {
      return null;
    }
    return s.matches("[a-z_][a-z0-9_$]*") ? s : "\"" + s.replace("\"", "\"\"") + "\"";
  }

  /** {@code s ~ pattern} (flags 1 = case-insensitive {@code ~*}). */
  public static Boolean pg_regex_match(String s, String pattern, Integer flags) {
    if (s == null || pattern == null) {
      return null;
    }
    int f = flags != null && flags == 1 ? Pattern.CASE_INSENSITIVE : 0;
    return Pattern.compile(pattern, f).matcher(s).find();
  }

  /** {@code 'name'::regclass}: the OID of a relation (catalog or user). */
  public static Long pg_regclass_oid(String name) {
    if (name == null) {
      return null;
    }
    String n = name.replace("pg_catalog.", "").replace("public.", "").replace("\"", "");
    Long fixed = CatalogIds.CATALOG_RELATIONS.get(n);
    if (fixed != null) {
      return fixed;
    }
    MetaClient m = CURRENT.get();
    if (m != null) {
      for (Relation r : m.relations()) {
        if (r.name().equals(n)) {
          return (long) r.id();
        }
      }
    }
    throw new IllegalArgumentException("relation \"" + name + "\" does not exist");
  }

  /** {@code oid::regclass} as text: the relation's name. */
  public static String pg_regclass_name(Long oid) {
    if (oid == null) {
      return null;
    }
    Relation r = relation(oid);
    if (r != null) {
      return r.name();
    }
    for (var e : CatalogIds.CATALOG_RELATIONS.entrySet()) {
      if (e.getValue().equals(oid)) {
        return e.getKey();
      }
    }
    return oid.toString();
  }

  /** {@code oid::regtype} as text. */
  public static String pg_regtype_name(Long oid) {
    return oid == null ? null : CatalogIds.formatType(oid, -1);
  }

  private static Relation relation(Long oid) {
    MetaClient m = CURRENT.get();
    if (m == null || oid == null) {
      return null;
    }
    for (Relation r : m.relations()) {
      if (r.id() == oid) {
        return r;
      }
    }
    return null;
  }

  /** {@code current_user}, {@code session_user}, {@code user}: the connected user. */
  public static String pg_session_user() {
    String u = USER.get();
    return u == null ? "root" : u;
  }

  /** {@code current_schema} (and {@code current_schema()}): the schema names resolve in. */
  public static String pg_current_schema() {
    return "public";
  }
}
