package dev.tideway.common.config;

/**
 * The {@code tideway.common} settings.
 *
 * @param expensiveChecks {@code tideway.common.checks.expensive}: run the expensive invariant
 *     checks (cheap ones are always on); tests and the playground turn it on
 */
public record CommonSettings(boolean expensiveChecks) {
  public static final String EXPENSIVE_CHECKS = "tideway.common.checks.expensive";

  /** Reads the settings from {@code config}. */
  public static CommonSettings from(TidewayConfig config) {
    return new CommonSettings(config.getBoolean(EXPENSIVE_CHECKS));
  }
}
