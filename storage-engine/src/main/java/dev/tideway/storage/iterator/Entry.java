package dev.tideway.storage.iterator;

import dev.tideway.storage.api.Epochs;
import dev.tideway.storage.api.Keys;
import java.util.Arrays;

/** One stored version of a key: a put with its value, or a tombstone ({@link #delete()}). */
public record Entry(byte[] key, long epoch, boolean delete, byte[] value) {
  public static final byte[] EMPTY = new byte[0];

  public static Entry put(byte[] key, long epoch, byte[] value) {
    return new Entry(key, epoch, false, value);
  }

  public static Entry tombstone(byte[] key, long epoch) {
    return new Entry(key, epoch, true, EMPTY);
  }

  /** Storage order: key ascending, epoch descending. */
  public static int compare(byte[] k1, long e1, byte[] k2, long e2) {
    int c = Keys.compare(k1, k2);
    return c != 0 ? c : Long.compare(e2, e1);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Entry e
        && epoch == e.epoch
        && delete == e.delete
        && Arrays.equals(key, e.key)
        && Arrays.equals(value, e.value);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(key) * 31 + Long.hashCode(epoch);
  }

  @Override
  public String toString() {
    return (delete ? "DEL " : "PUT ")
        + Keys.hex(key)
        + "@"
        + Epochs.format(epoch)
        + (delete ? "" : "=" + Keys.hex(value));
  }
}
