package dev.tideway.common.config;

/**
 * A configuration problem the operator must fix: an unknown key or environment variable, or a value
 * of the wrong form or out of range. The message names the key, the value, where the value came
 * from (file and line, environment variable, flag) and what is allowed.
 */
public final class ConfigError extends RuntimeException {
  private final String key;

  ConfigError(String key, String message) {
    super(message);
    this.key = key;
  }

  ConfigError(String key, String message, Throwable cause) {
    super(message, cause);
    this.key = key;
  }

  /** The key at fault ({@code tideway.meta.barrier-interval-ms}). */
  public String key() {
    return key;
  }
}
