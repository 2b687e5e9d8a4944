package dev.tideway.common.fault;

/**
 * A failure injected by a test through {@link FailPoints} or a failing fake. Its own type so that
 * an injected failure can never be mistaken for a real bug in test output or in error
 * classification.
 */
public final class InjectedFault extends RuntimeException {
  private final String point;

  public InjectedFault(String point) {
    super("injected fault at fail point '" + point + "'");
    this.point = point;
  }

  /** The name of the fail point that fired. */
  public String point() {
    return point;
  }
}
