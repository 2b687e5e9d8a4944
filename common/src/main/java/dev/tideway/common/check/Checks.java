package dev.tideway.common.check;

/**
 * Always-on invariant checks. Unlike the {@code assert} keyword these cannot be disabled: a broken
 * invariant in a stream processor silently corrupts state, so it must stop the actor instead.
 *
 * <p>Messages are {@link String#format} templates and are only formatted on failure; name the ids
 * and values involved ({@code "actor %s: epoch %s after %s"}).
 */
public final class Checks {
  private Checks() {}

  /** A broken internal invariant: a bug in Tideway, never a user error. */
  public static final class InvariantViolation extends IllegalStateException {
    public InvariantViolation(String message) {
      super(message);
    }
  }

  /** Fails with {@link InvariantViolation} when {@code condition} is false. */
  public static void checkState(boolean condition, String template, Object... args) {
    if (!condition) {
      throw new InvariantViolation(format(template, args));
    }
  }

  /** Fails with {@link IllegalArgumentException} when a caller passed a bad argument. */
  public static void checkArgument(boolean condition, String template, Object... args) {
    if (!condition) {
      throw new IllegalArgumentException(format(template, args));
    }
  }

  /** Returns {@code value}, or fails naming {@code what} when it is null. */
  public static <T> T checkNotNull(T value, String what) {
    if (value == null) {
      throw new NullPointerException(what + " must not be null");
    }
    return value;
  }

  /** Checks {@code 0 <= index < size}, naming what is indexed. */
  public static int checkIndex(int index, int size, String what) {
    if (index < 0 || index >= size) {
      throw new IndexOutOfBoundsException(what + " index " + index + " out of [0, " + size + ")");
    }
    return index;
  }

  private static String format(String template, Object... args) {
    return args.length == 0 ? template : String.format(template, args);
  }
}
