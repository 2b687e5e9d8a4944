package dev.tideway.protocol.meta;

/** A request reached a meta process that does not lead (or stopped leading while handling it). */
public final class NotLeaderException extends RuntimeException {
  public NotLeaderException(String message) {
    super(message);
  }
}
