package dev.tideway.storage.api;

/**
 * The storage engine's one exception type. {@link Reason} classifies it once, at the boundary;
 * {@link #retryable()} says whether the same call may succeed later. Messages name the files, ids
 * and epochs involved.
 */
public final class StorageException extends RuntimeException {
  /** Why a storage call failed. */
  public enum Reason {
    /** The object store failed (I/O); may succeed on retry. */
    OBJECT_STORE(true),
    /** A file failed verification (checksum, footer, format): data is damaged, never retried. */
    CORRUPTED(false),
    /** A read at an epoch below the safe epoch or above the committed epoch. */
    EPOCH_OUT_OF_RANGE(false),
    /** A call out of protocol order (commit of an old epoch, write after seal). */
    PROTOCOL(false),
    /** The store is closed. */
    CLOSED(false);

    private final boolean retryable;

    Reason(boolean retryable) {
      this.retryable = retryable;
    }
  }

  private final Reason reason;

  public StorageException(Reason reason, String message, Throwable cause) {
    super(message, cause);
    this.reason = reason;
  }

  public StorageException(Reason reason, String message) {
    this(reason, message, null);
  }

  public Reason reason() {
    return reason;
  }

  public boolean retryable() {
    return reason.retryable;
  }
}
