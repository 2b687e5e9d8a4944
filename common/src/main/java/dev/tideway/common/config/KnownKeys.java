package dev.tideway.common.config;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigValue;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The {@code tideway.*} keys the defaults define, each with its environment twin ({@code
 * tideway.meta.barrier-interval-ms} → {@code TIDEWAY_META_BARRIER_INTERVAL_MS}), and the
 * closest-key suggestions for typos. The twin is derived mechanically (upper case, {@code .} and
 * {@code -} → {@code _}); since that loses information, the key is found by walking the known keys,
 * never by reversing the name. Immutable.
 */
final class KnownKeys {
  static final String ROOT = "tideway";

  /** Key → the reference value (its type decides how an environment value is parsed). */
  private final Map<String, ConfigValue> keys = new TreeMap<>();

  /** Environment name → key. */
  private final Map<String, String> byEnv = new TreeMap<>();

  KnownKeys(Config reference) {
    if (reference.hasPath(ROOT)) {
      for (Map.Entry<String, ConfigValue> e : reference.getConfig(ROOT).entrySet()) {
        String key = ROOT + "." + e.getKey();
        keys.put(key, e.getValue());
        String env = envName(key);
        String other = byEnv.putIfAbsent(env, key);
        if (other != null) {
          throw new ConfigError(
              key,
              "keys "
                  + other
                  + " and "
                  + key
                  + " both map to environment variable "
                  + env
                  + "; rename one of them in its reference.conf");
        }
      }
    }
  }

  /** The environment variable of {@code key}. */
  static String envName(String key) {
    return key.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
  }

  boolean contains(String key) {
    return keys.containsKey(key);
  }

  ConfigValue reference(String key) {
    return keys.get(key);
  }

  /** The key whose environment twin is {@code env}, or null. */
  String keyOfEnv(String env) {
    return byEnv.get(env);
  }

  /** " (did you mean X?)" for the known key closest to {@code key}, or "". */
  String suggestKey(String key) {
    String best = closest(key, keys.keySet());
    return best == null ? "" : " (did you mean " + best + "?)";
  }

  /** " (did you mean X for key?)" for the known environment name closest to {@code env}, or "". */
  String suggestEnv(String env) {
    String best = closest(env, byEnv.keySet());
    return best == null ? "" : " (did you mean " + best + ", for " + byEnv.get(best) + "?)";
  }

  private static String closest(String s, Iterable<String> candidates) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String c : candidates) {
      int d = distance(s, c);
      if (d < bestDistance) {
        best = c;
        bestDistance = d;
      }
    }
    // Only suggest what is plausibly a typo: at most a third of the name differs.
    return best != null && bestDistance <= Math.max(2, s.length() / 3) ? best : null;
  }

  /** Levenshtein distance. */
  static int distance(String a, String b) {
    int[] prev = new int[b.length() + 1];
    int[] cur = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      prev[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      cur[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
      }
      int[] t = prev;
      prev = cur;
      cur = t;
    }
    return prev[b.length()];
  }
}
