package dev.tideway.frontend.session;

import dev.tideway.frontend.pgwire.PgException;
import dev.tideway.frontend.pgwire.SqlState;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;

/**
 * Session variables ({@code SET} / {@code SHOW}). Unknown names are {@code 42704}, as PostgreSQL
 * answers; values of Tideway's own variables are checked.
 *
 * <p>Thread confinement: the session's connection thread.
 */
final class SessionVars {
  private final Map<String, String> vars = new LinkedHashMap<>();

  SessionVars() {
    vars.put("background_ddl", "false");
    vars.put("backfill_rate_limit", "default");
    vars.put("application_name", "");
    vars.put("search_path", "public");
    vars.put("timezone", "UTC");
    vars.put("client_encoding", "UTF8");
    vars.put("datestyle", "ISO, MDY");
    vars.put("intervalstyle", "postgres");
    vars.put("extra_float_digits", "1");
    vars.put("server_version", "13.14.0");
    vars.put("server_version_num", "130014");
    vars.put("standard_conforming_strings", "on");
    vars.put("transaction_isolation", "read committed");
    vars.put("default_transaction_isolation", "read committed");
    vars.put("transaction_read_only", "off");
    vars.put("default_transaction_read_only", "off");
    vars.put("integer_datetimes", "on");
    vars.put("max_identifier_length", "63");
    vars.put("server_encoding", "UTF8");
    vars.put("lc_collate", "C");
    vars.put("lc_ctype", "C");
    vars.put("statement_timeout", "0");
    vars.put("streaming_parallelism", "default");
    // RisingWave's: FLUSH after every INSERT/UPDATE/DELETE, so the next query sees the write
    vars.put("rw_implicit_flush", "false");
    vars.put("query_mode", "auto");
    // RisingWave's planner hints: accepted, and without effect here (the planner decides; results
    // are the same either way)
    for (String hint :
        List.of(
            "enable_two_phase_agg",
            "rw_force_two_phase_agg",
            "rw_streaming_enable_delta_join",
            "streaming_enable_unaligned_join",
            "streaming_unsafe_allow_unmaterialized_impure_expr")) {
      vars.put(hint, "false");
    }
    vars.put("enable_two_phase_agg", "true");
  }

  Map<String, String> all() {
    return vars;
  }

  boolean backgroundDdl() {
    return vars.get("background_ddl").equals("true");
  }

  boolean implicitFlush() {
    return vars.get("rw_implicit_flush").equals("true");
  }

  /** {@code backfill_rate_limit} in rows per second; empty for {@code DEFAULT} (unlimited). */
  OptionalLong backfillRateLimit() {
    String v = vars.get("backfill_rate_limit");
    return v.equalsIgnoreCase("default")
        ? OptionalLong.empty()
        : OptionalLong.of(Long.parseLong(v));
  }

  void set(String name, String value) {
    String n = name.toLowerCase(Locale.ROOT);
    n = n.equals("implicit_flush") ? "rw_implicit_flush" : n; // RisingWave's other spelling
    if (n.equals("transaction") || n.equals("session characteristics")) {
      return;
    }
    if (!vars.containsKey(n)) {
      throw PgException.error(
          SqlState.UNDEFINED_OBJECT, "unrecognized configuration parameter \"" + name + "\"");
    }
    String v = value;
    switch (n) {
      case "background_ddl",
          "rw_implicit_flush",
          "enable_two_phase_agg",
          "rw_force_two_phase_agg",
          "rw_streaming_enable_delta_join",
          "streaming_enable_unaligned_join",
          "streaming_unsafe_allow_unmaterialized_impure_expr" ->
          v = bool(n, value);
      case "query_mode" -> {
        v = value.toLowerCase(Locale.ROOT);
        if (!List.of("auto", "local", "distributed").contains(v)) {
          throw PgException.error(
              SqlState.INVALID_PARAMETER_VALUE,
              "invalid value for parameter \"query_mode\": \"" + value + "\"");
        }
      }
      case "backfill_rate_limit" -> {
        v = value.trim().toLowerCase(Locale.ROOT);
        if (!v.equals("default")) {
          try {
            if (Long.parseLong(value.trim()) < 0) {
              throw new NumberFormatException();
            }
          } catch (NumberFormatException e) {
            throw PgException.error(
                    SqlState.INVALID_PARAMETER_VALUE,
                    "invalid value for parameter \"backfill_rate_limit\": \"" + value + "\"")
                .withHint("use a non-negative number of rows per second, or DEFAULT");
          }
        }
      }
      default -> {}
    }
    vars.put(n, v);
    if (n.equals("rw_force_two_phase_agg") && v.equals("true")) {
      vars.put("enable_two_phase_agg", "true"); // forcing it enables it, as in RisingWave
    }
  }

  private static String bool(String name, String value) {
    return switch (value.toLowerCase(Locale.ROOT)) {
      case "true", "on", "1", "yes", "t" -> "true";
      case "false", "off", "0", "no", "f" -> "false";
      default ->
          throw PgException.error(
              SqlState.INVALID_PARAMETER_VALUE,
              "parameter \"" + name + "\" requires a Boolean value");
    };
  }
}
