package dev.tideway.compute.expr;

/**
 * A user-visible evaluation error: overflow, division by zero, a value that cannot be cast, a bad
 * function argument. The message names the function, the values and their types; {@link
 * #sqlState()} gives the PostgreSQL error code the frontend reports. Never retryable: the same
 * input fails the same way.
 */
public final class ExprException extends RuntimeException {
  /** Why evaluation failed; each maps to one SQLSTATE. */
  public enum Reason {
    NUMERIC_OUT_OF_RANGE("22003"),
    DIVISION_BY_ZERO("22012"),
    INVALID_CAST("22P02"),
    INVALID_ARGUMENT("22023");

    private final String sqlState;

    Reason(String sqlState) {
      this.sqlState = sqlState;
    }

    public String sqlState() {
      return sqlState;
    }
  }

  private final Reason reason;

  public ExprException(Reason reason, String message) {
    super(message);
    this.reason = reason;
  }

  public ExprException(Reason reason, String message, Throwable cause) {
    super(message, cause);
    this.reason = reason;
  }

  public Reason reason() {
    return reason;
  }

  public String sqlState() {
    return reason.sqlState();
  }

  /** Always false: evaluation is deterministic, retrying the same input fails again. */
  public boolean retryable() {
    return false;
  }
}
