package dev.tideway.protocol.store;

/**
 * A metadata store failure, classified once at the store's boundary.
 *
 * <p>{@link Reason#UNKNOWN_OUTCOME} is a state, not an error to retry blindly: the multi-op may or
 * may not have been applied. The caller must re-read the affected znodes and reconcile before
 * anything else; it must never clean up as if the write failed.
 */
public final class MetaStoreException extends RuntimeException {
  /** Why a store call failed. */
  public enum Reason {
    /** This process is not the current leader (locally known, or ZooKeeper's check failed). */
    FENCED(false),
    /** The connection dropped while the write was in flight: re-read, then decide. */
    UNKNOWN_OUTCOME(true),
    /** ZooKeeper refused or failed for another reason (a bug or a broken ensemble). */
    FAILED(false);

    private final boolean retryable;

    Reason(boolean retryable) {
      this.retryable = retryable;
    }

    public boolean retryable() {
      return retryable;
    }
  }

  private final Reason reason;

  public MetaStoreException(Reason reason, String message, Throwable cause) {
    super(reason + ": " + message, cause);
    this.reason = reason;
  }

  public Reason reason() {
    return reason;
  }

  public boolean retryable() {
    return reason.retryable();
  }
}
