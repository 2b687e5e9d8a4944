package dev.tideway.common.bench;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A named benchmark that {@code tideway bench NAME} runs. Implementations print {@code key=value}
 * lines (one figure each, units last in the key: {@code sync_rows_per_s}), the last line a summary.
 * Register an implementation in {@code META-INF/services/dev.tideway.common.bench.Benchmark}.
 */
public interface Benchmark {
  /** The name users type after {@code tideway bench}. */
  String name();

  /** One line for the benchmark list. */
  String description();

  /** Runs the benchmark; throws {@link IllegalArgumentException} for bad options. */
  void run(Options options, PrintWriter out);

  /** {@code --key value} options; unknown keys are rejected by {@link #checkOnly}. */
  record Options(Map<String, String> values) {
    public Options {
      values = Map.copyOf(values);
    }

    /** Parses {@code --key value} and {@code --key=value} pairs. */
    public static Options parse(List<String> args) {
      Map<String, String> map = new LinkedHashMap<>();
      for (int i = 0; i < args.size(); i++) {
        String a = args.get(i);
        if (!a.startsWith("--") || a.length() == 2) {
          throw new IllegalArgumentException("expected --option, got '" + a + "'");
        }
        int eq = a.indexOf('=');
        if (eq > 0) {
          map.put(a.substring(2, eq), a.substring(eq + 1));
        } else if (i + 1 < args.size()) {
          map.put(a.substring(2), args.get(++i));
        } else {
          throw new IllegalArgumentException("option " + a + " needs a value");
        }
      }
      return new Options(map);
    }

    /** Fails naming the first option not in {@code known}. */
    public Options checkOnly(String... known) {
      for (String k : values.keySet()) {
        if (!List.of(known).contains(k)) {
          throw new IllegalArgumentException(
              "unknown option --" + k + "; known: --" + String.join(", --", known));
        }
      }
      return this;
    }

    /** A positive integer option. */
    public long getLong(String key, long defaultValue) {
      return getLong(key, defaultValue, 1);
    }

    /** An integer option of at least {@code min}. */
    public long getLong(String key, long defaultValue, long min) {
      String v = values.get(key);
      if (v == null) {
        return defaultValue;
      }
      long parsed;
      try {
        parsed = Long.parseLong(v.replace("_", ""));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("--" + key + " must be an integer, got '" + v + "'");
      }
      if (parsed < min) {
        throw new IllegalArgumentException(
            "--"
                + key
                + (min == 1 ? " must be positive" : " must be at least " + min)
                + ", got "
                + v);
      }
      return parsed;
    }
  }
}
