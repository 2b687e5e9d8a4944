package dev.tideway.frontend.pgwire;

/**
 * An error (or, with severity FATAL, a connection-ending error) to send as an {@code
 * ErrorResponse}. Every layer below the protocol reports user-visible failures with this type, so
 * the protocol has one place that turns them into bytes.
 *
 * @see SqlState
 */
public final class PgException extends RuntimeException {
  private final String sqlState;
  private final boolean fatal;
  private final int position;
  private final String detail;
  private final String hint;

  private PgException(
      String sqlState, String message, boolean fatal, int position, String detail, String hint) {
    super(message);
    this.sqlState = sqlState;
    this.fatal = fatal;
    this.position = position;
    this.detail = detail;
    this.hint = hint;
  }

  /** An ERROR with this SQLSTATE. */
  public static PgException error(String sqlState, String message) {
    return new PgException(sqlState, message, false, 0, null, null);
  }

  /** A FATAL error: the server closes the connection after sending it. */
  public static PgException fatal(String sqlState, String message) {
    return new PgException(sqlState, message, true, 0, null, null);
  }

  /** {@code 0A000 <what> is not supported}. */
  public static PgException unsupported(String what) {
    return error(SqlState.FEATURE_NOT_SUPPORTED, what + " is not supported");
  }

  /** {@code 08P01} protocol violation (FATAL). */
  public static PgException protocol(String message) {
    return fatal(SqlState.PROTOCOL_VIOLATION, message);
  }

  /** This error with a 1-based character position into the statement (psql draws a caret). */
  public PgException withPosition(int position) {
    return new PgException(sqlState, getMessage(), fatal, position, detail, hint);
  }

  /** This error with a DETAIL line. */
  public PgException withDetail(String detail) {
    return new PgException(sqlState, getMessage(), fatal, position, detail, hint);
  }

  /** This error with a HINT line. */
  public PgException withHint(String hint) {
    return new PgException(sqlState, getMessage(), fatal, position, detail, hint);
  }

  public String sqlState() {
    return sqlState;
  }

  public boolean isFatal() {
    return fatal;
  }

  /** 1-based character position, 0 when unknown. */
  public int position() {
    return position;
  }

  public String detail() {
    return detail;
  }

  public String hint() {
    return hint;
  }
}
