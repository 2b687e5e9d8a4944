package dev.tideway.common.config;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigParseOptions;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueFactory;
import com.typesafe.config.ConfigValueType;
import dev.tideway.common.check.Checks;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A node's configuration: the merged HOCON tree plus typed, validated getters.
 *
 * <p>Layers, lowest first (a higher layer wins key by key):
 *
 * <ol>
 *   <li>defaults: every {@code reference.conf} on the class path (each module's {@code
 *       tideway.<module>} section, Pekko's defaults);
 *   <li>the node's config file, if given ({@code --config}, or {@code TIDEWAY_CONFIG});
 *   <li>environment variables: each known key's twin ({@code tideway.meta.barrier-interval-ms} →
 *       {@code TIDEWAY_META_BARRIER_INTERVAL_MS});
 *   <li>explicit overrides, typically command-line flags, each with an origin to report.
 * </ol>
 *
 * <p>Strictness: every {@code tideway.*} key set by a file or an override must be a key some {@code
 * reference.conf} defines, and every environment variable starting with {@code TIDEWAY_} (except
 * {@link #NON_CONFIG_ENV}) must be a key's twin; otherwise loading fails suggesting the closest
 * key. Keys outside {@code tideway} (e.g. {@code pekko.*}) pass through unchecked. No {@code
 * application.conf} and no system properties are read: what configures a node is explicit.
 *
 * <p>Getter errors ({@link ConfigError}) read like {@code tideway.x.y = "5q" (from environment
 * variable TIDEWAY_X_Y): expected a duration such as 500ms, 2s, 1m, between 10ms and 1h}.
 *
 * <p>Immutable and thread-safe.
 */
public final class TidewayConfig {
  /** {@code TIDEWAY_*} environment variables that are not config keys (read by scripts). */
  public static final Set<String> NON_CONFIG_ENV =
      Set.of("TIDEWAY_CONFIG", "TIDEWAY_HOME", "TIDEWAY_JAVA_OPTS");

  private static final String ENV_PREFIX = "TIDEWAY_";

  /** Environment variable naming the config file when the loader is given none. */
  public static final String CONFIG_FILE_ENV = "TIDEWAY_CONFIG";

  private final Config config;

  private TidewayConfig(Config config) {
    this.config = config;
  }

  /**
   * A process's configuration: the class-path defaults, its config file ({@code TIDEWAY_CONFIG})
   * and its {@code TIDEWAY_*} environment variables.
   */
  public static TidewayConfig ofProcess() {
    return loader().environment(System.getenv()).load();
  }

  public static Loader loader() {
    return new Loader();
  }

  /** The merged tree, for libraries that take a {@link Config} (the Pekko actor system). */
  public Config underlying() {
    return config;
  }

  /** Where the value of {@code key} came from (file and line, environment variable, flag). */
  public String origin(String key) {
    return value(key).origin().description();
  }

  public boolean getBoolean(String key) {
    ConfigValue v = value(key);
    try {
      return config.getBoolean(key);
    } catch (ConfigException.WrongType e) {
      throw bad(key, v, "expected true or false (also on/off, yes/no)");
    }
  }

  public String getString(String key) {
    ConfigValue v = value(key);
    try {
      return config.getString(key);
    } catch (ConfigException.WrongType e) {
      throw bad(key, v, "expected a string");
    }
  }

  public List<String> getStringList(String key) {
    ConfigValue v = value(key);
    try {
      return List.copyOf(config.getStringList(key));
    } catch (ConfigException.WrongType e) {
      throw bad(key, v, "expected a list of strings such as [\"a\", \"b\"]");
    }
  }

  /** An integer in {@code [min, max]}. */
  public int getInt(String key, int min, int max) {
    return (int) getLong(key, min, max);
  }

  /** A long in {@code [min, max]}. */
  public long getLong(String key, long min, long max) {
    ConfigValue v = value(key);
    String allowed = "expected an integer in [" + min + ", " + max + "]";
    long n;
    try {
      n = config.getLong(key);
    } catch (ConfigException.WrongType e) {
      throw bad(key, v, allowed);
    }
    if (n < min || n > max) {
      throw bad(key, v, allowed);
    }
    return n;
  }

  /** A duration in {@code [min, max]}; a plain number means milliseconds. */
  public Duration getDuration(String key, Duration min, Duration max) {
    ConfigValue v = value(key);
    String allowed =
        "expected a duration such as 500ms, 2s, 1m, between " + human(min) + " and " + human(max);
    Duration d;
    try {
      d = config.getDuration(key);
    } catch (ConfigException.BadValue | ConfigException.WrongType e) {
      throw bad(key, v, allowed);
    }
    if (d.compareTo(min) < 0 || d.compareTo(max) > 0) {
      throw bad(key, v, allowed);
    }
    return d;
  }

  /**
   * A size in bytes in {@code [min, max]}, written like {@code 64MiB}, {@code 512k} or a number.
   */
  public long getBytes(String key, long min, long max) {
    ConfigValue v = value(key);
    String allowed =
        "expected a size such as 512KiB, 64MiB, 1g or a byte count, between "
            + min
            + " and "
            + max
            + " bytes";
    long n;
    try {
      n = config.getBytes(key);
    } catch (ConfigException.BadValue | ConfigException.WrongType e) {
      throw bad(key, v, allowed);
    }
    if (n < min || n > max) {
      throw bad(key, v, allowed);
    }
    return n;
  }

  /** An enum constant, matched ignoring case with {@code -} for {@code _}. */
  public <E extends Enum<E>> E getEnum(String key, Class<E> type) {
    ConfigValue v = value(key);
    String text = getString(key).trim().toUpperCase(Locale.ROOT).replace('-', '_');
    for (E e : type.getEnumConstants()) {
      if (e.name().equals(text)) {
        return e;
      }
    }
    String allowed =
        Arrays.stream(type.getEnumConstants())
            .map(e -> e.name().toLowerCase(Locale.ROOT).replace('_', '-'))
            .toList()
            .toString();
    throw bad(key, v, "expected one of " + allowed);
  }

  /** A {@code host:port} address. */
  public HostPort getHostPort(String key) {
    ConfigValue v = value(key);
    try {
      return HostPort.parse(getString(key));
    } catch (IllegalArgumentException e) {
      throw bad(key, v, e.getMessage());
    }
  }

  private ConfigValue value(String key) {
    Checks.checkNotNull(key, "config key");
    if (!config.hasPath(key)) {
      throw new ConfigError(key, "no setting " + key + " (is it in a reference.conf?)");
    }
    return config.getValue(key);
  }

  private static ConfigError bad(String key, ConfigValue v, String allowed) {
    String shown =
        v.valueType() == ConfigValueType.STRING ? "\"" + v.unwrapped() + "\"" : v.render();
    return new ConfigError(
        key, key + " = " + shown + " (from " + v.origin().description() + "): " + allowed);
  }

  private static String human(Duration d) {
    return d.toMillis() % 1000 != 0 || d.isZero() ? d.toMillis() + "ms" : d.toSeconds() + "s";
  }

  /** Collects the layers; {@link #load()} merges and checks them. Not thread-safe. */
  public static final class Loader {
    private ClassLoader classLoader = TidewayConfig.class.getClassLoader();
    private Config reference;
    private Path file;
    private Map<String, String> environment = Map.of();
    private final Map<String, ConfigValue> overrides = new LinkedHashMap<>();

    private Loader() {}

    /** Where to find {@code reference.conf} files (default: this class's loader). */
    public Loader classLoader(ClassLoader loader) {
      this.classLoader = Checks.checkNotNull(loader, "class loader");
      return this;
    }

    /** Replaces the class-path defaults (tests). */
    public Loader reference(Config reference) {
      this.reference = Checks.checkNotNull(reference, "reference config");
      return this;
    }

    /** The node's config file; must exist. Without one, {@code TIDEWAY_CONFIG} names it, if set. */
    public Loader file(Path file) {
      this.file = Checks.checkNotNull(file, "config file");
      return this;
    }

    /**
     * The environment to read {@code TIDEWAY_*} variables from (production: {@code
     * System.getenv()}).
     */
    public Loader environment(Map<String, String> environment) {
      this.environment = Map.copyOf(environment);
      return this;
    }

    /**
     * Sets {@code key} above every other layer; {@code origin} names the source ({@code --port}).
     */
    public Loader override(String key, String value, String origin) {
      overrides.put(key, ConfigValueFactory.fromAnyRef(value, origin));
      return this;
    }

    public TidewayConfig load() {
      Config defaults = reference != null ? reference : ConfigFactory.defaultReference(classLoader);
      KnownKeys known = new KnownKeys(defaults);
      Config merged = defaults;
      if (file == null && environment.containsKey(CONFIG_FILE_ENV)) {
        file = Path.of(environment.get(CONFIG_FILE_ENV));
      }
      if (file != null) {
        merged = fileLayer(known).withFallback(merged);
      }
      merged = environmentLayer(known).withFallback(merged);
      merged = overrideLayer(known).withFallback(merged);
      return new TidewayConfig(merged.resolve());
    }

    private Config fileLayer(KnownKeys known) {
      if (!Files.isRegularFile(file)) {
        throw new ConfigError("", "config file " + file + " does not exist");
      }
      Config parsed =
          ConfigFactory.parseFile(
              file.toFile(), ConfigParseOptions.defaults().setAllowMissing(false));
      if (parsed.hasPath(KnownKeys.ROOT)) {
        for (Map.Entry<String, ConfigValue> e : parsed.getConfig(KnownKeys.ROOT).entrySet()) {
          String key = KnownKeys.ROOT + "." + e.getKey();
          if (!known.contains(key)) {
            throw new ConfigError(
                key,
                "unknown setting "
                    + key
                    + " in "
                    + e.getValue().origin().description()
                    + known.suggestKey(key));
          }
        }
      }
      return parsed;
    }

    private Config environmentLayer(KnownKeys known) {
      Config layer = ConfigFactory.empty();
      for (Map.Entry<String, String> e : environment.entrySet()) {
        String name = e.getKey();
        if (!name.startsWith(ENV_PREFIX) || NON_CONFIG_ENV.contains(name)) {
          continue;
        }
        String key = known.keyOfEnv(name);
        if (key == null) {
          throw new ConfigError(
              name,
              "environment variable "
                  + name
                  + " matches no setting"
                  + known.suggestEnv(name)
                  + "; unset it or fix the name");
        }
        String origin = "environment variable " + name;
        ConfigValue value;
        if (known.reference(key).valueType() == ConfigValueType.LIST) {
          value =
              ConfigFactory.parseString(
                      "v = " + e.getValue(),
                      ConfigParseOptions.defaults().setOriginDescription(origin))
                  .getValue("v");
        } else {
          value = ConfigValueFactory.fromAnyRef(e.getValue(), origin);
        }
        layer = layer.withValue(key, value);
      }
      return layer;
    }

    private Config overrideLayer(KnownKeys known) {
      Config layer = ConfigFactory.empty();
      for (Map.Entry<String, ConfigValue> e : overrides.entrySet()) {
        String key = e.getKey();
        if (key.startsWith(KnownKeys.ROOT + ".") && !known.contains(key)) {
          throw new ConfigError(
              key,
              "unknown setting "
                  + key
                  + " (from "
                  + e.getValue().origin().description()
                  + ")"
                  + known.suggestKey(key));
        }
        layer = layer.withValue(key, e.getValue());
      }
      return layer;
    }
  }
}
