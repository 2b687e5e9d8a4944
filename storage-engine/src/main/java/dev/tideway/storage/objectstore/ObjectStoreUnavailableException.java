package dev.tideway.storage.objectstore;

import java.io.IOException;

/**
 * The object store could not be reached or refused a request (network errors, timeouts, 5xx and
 * throttling after the retries): the data may be fine, and the same call may succeed later. Readers
 * report it as a failure of the store, never as a damaged file.
 */
public final class ObjectStoreUnavailableException extends IOException {
  public ObjectStoreUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }

  /** Whether {@code e} or one of its causes is this exception. */
  public static boolean in(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof ObjectStoreUnavailableException) {
        return true;
      }
    }
    return false;
  }
}
