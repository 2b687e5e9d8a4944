package dev.tideway.connector.format;

/** A record that cannot become a row of the source's columns; the message says why. */
public final class MalformedRecordException extends Exception {
  public MalformedRecordException(String message) {
    super(message, null, false, false);
  }

  public MalformedRecordException(String message, Throwable cause) {
    super(message, cause, false, false);
  }
}
