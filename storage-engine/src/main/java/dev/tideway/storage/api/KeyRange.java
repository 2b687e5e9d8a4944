package dev.tideway.storage.api;

/**
 * A half-open key range {@code [start, end)} over full storage keys; a null bound is unbounded.
 * Build ranges with {@link #prefix}, {@link #table}, {@link #vnode} or {@link #of}.
 */
public record KeyRange(byte[] start, byte[] end) {
  public static final KeyRange ALL = new KeyRange(null, null);

  public static KeyRange of(byte[] startInclusive, byte[] endExclusive) {
    return new KeyRange(startInclusive, endExclusive);
  }

  /** Every key starting with {@code prefix}. */
  public static KeyRange prefix(byte[] prefix) {
    return new KeyRange(prefix.clone(), Keys.prefixEnd(prefix));
  }

  public static KeyRange table(int tableId) {
    return prefix(Keys.tablePrefix(tableId));
  }

  public static KeyRange vnode(int tableId, int vnode) {
    return prefix(Keys.vnodePrefix(tableId, vnode));
  }

  public boolean contains(byte[] key) {
    return (start == null || Keys.compare(key, start) >= 0)
        && (end == null || Keys.compare(key, end) < 0);
  }

  /** True when {@code [min, max]} (both inclusive) intersects this range. */
  public boolean overlaps(byte[] min, byte[] max) {
    return (start == null || Keys.compare(max, start) >= 0)
        && (end == null || Keys.compare(min, end) < 0);
  }

  /** True when the key is at or after the end of the range. */
  public boolean isAfter(byte[] key) {
    return end != null && Keys.compare(key, end) >= 0;
  }

  @Override
  public String toString() {
    return "[" + Keys.hex(start) + ", " + Keys.hex(end) + ")";
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof KeyRange r
        && java.util.Arrays.equals(start, r.start)
        && java.util.Arrays.equals(end, r.end);
  }

  @Override
  public int hashCode() {
    return java.util.Arrays.hashCode(start) * 31 + java.util.Arrays.hashCode(end);
  }
}
