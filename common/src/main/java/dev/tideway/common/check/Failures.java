package dev.tideway.common.check;

/** Messages of failures for logs and answers. Stateless. */
public final class Failures {
  private Failures() {}

  /**
   * The message of {@code t}'s root cause (futures and executors wrap the failure that matters), or
   * its {@code toString} when it has none.
   */
  public static String rootMessage(Throwable t) {
    Throwable c = t;
    while (c.getCause() != null && c.getCause() != c) {
      c = c.getCause();
    }
    return c.getMessage() == null ? c.toString() : c.getMessage();
  }
}
