package dev.tideway.protocol.meta;

/** The meta leader refused a DDL command; {@link #reason()} says why. */
public final class DdlRejectedException extends RuntimeException {
  private final DdlReply.Rejected.Reason reason;

  public DdlRejectedException(DdlReply.Rejected.Reason reason, String message) {
    super(message);
    this.reason = reason;
  }

  public DdlReply.Rejected.Reason reason() {
    return reason;
  }
}
