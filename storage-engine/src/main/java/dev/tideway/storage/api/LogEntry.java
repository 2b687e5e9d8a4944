package dev.tideway.storage.api;

/**
 * One change of a change-log table at an epoch: an insert (no old value), a delete (no new value)
 * or an update (both). Emitted by {@code iterLog} in epoch order, then key order.
 */
public record LogEntry(long epoch, Kind kind, byte[] key, byte[] oldValue, byte[] newValue) {
  /** The change kind. */
  public enum Kind {
    INSERT,
    DELETE,
    UPDATE
  }
}
