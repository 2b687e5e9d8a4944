package dev.tideway.compute.executor;

import dev.tideway.common.row.Row;
import dev.tideway.compute.executor.JoinPrefilter.RangeBound;
import dev.tideway.storage.api.Keys;
import dev.tideway.storage.table.StateTable;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * A join side whose rows are sorted, under each join key, by the column a range condition bounds
 * ({@code AB.num >= MB.maxn} in Nexmark q5), so that a probe reads only the rows that may match:
 * one range of the key, not all of it. q5's window holds every auction's count but only the few at
 * the window's maximum match it, and each change of the maximum read the whole window before.
 * {@link HashJoinExecutor} uses it for a side that may delete and whose rows a conjunct of the
 * condition bounds by a column of the other side.
 *
 * <p>Layout: the side's columns then {@code multiplicity bigint}; pk = join key columns, the bound
 * column (ascending when matches lie above the bound, descending when below), then every other
 * column. A row is its own key, with a multiplicity, as in {@link JoinSideState}: storing rows by
 * the input's stream key instead would need every change of one stream key to arrive in order, and
 * changes of one key can reach a join from two upstream actors (a join over a join hashed by a key
 * outside the stream key). So a probe from the other side with bound value {@code b} reads the keys
 * from {@code (key, b)} to the end of the key.
 *
 * <p>Cache. Per join key, the rows of a suffix of the key's range: every row at or after {@code
 * from}, in storage order ({@code from} = the key's prefix when the whole key is cached). A probe
 * whose range starts at or after {@code from} reads only the cache; an earlier start reads the
 * missing part, {@code [start, from)}, and the entry grows to it. A write under a cached key
 * updates the entry when its row lies in the cached suffix, so an entry always equals the table
 * from {@code from} on. The cache counts a unit per key and per row and is trimmed, least recently
 * used key first, at barriers.
 *
 * <p>Reads avoided: over types whose Java equality is key equality ({@link KeyFilter#exact}), a
 * filter of the join keys written makes a probe of a never-written key read nothing, and a filter
 * of the rows written makes the write of a never-written row blind. A bounded map of the rows
 * written last knows the multiplicity of a row updated again soon. Other writes outside the cached
 * suffix read the row's multiplicity (one point get).
 *
 * <p>Confined to the join's actor thread.
 */
final class SortedJoinSide implements JoinSide {
  private final StateTable table;
  private final int[] keys;
  private final int width;
  private final int[] rowColumns;
  private final RangeBound bound;
  private final long capacity;
  private final int filterBits;
  private final boolean filtered;

  /** Cached keys by their encoded prefix, least recently used first. */
  private final LinkedHashMap<Prefix, Suffix> cache = new LinkedHashMap<>(64, 0.75f, true);

  /**
   * The multiplicities of the rows written last, by storage key, least recently written first (zero
   * for a row deleted): most updates retract a row written a few epochs before (q5's count of an
   * auction moves on while the auction is recent), which would otherwise cost a point read. At most
   * {@code capacity} rows, trimmed at barriers.
   */
  private final LinkedHashMap<Prefix, long[]> recent = new LinkedHashMap<>(64, 0.75f, true);

  private long cachedUnits;

  /** Join keys written; null when the types' Java equality is not key equality. */
  private KeyFilter filter;

  /** Whole rows written (null with {@link #filter}). */
  private KeyFilter rowFilter;

  /**
   * A storage key or a join key's prefix ({@code table | vnode | key}), compared by content, its
   * hash computed once. FNV-1a over the bytes: {@code Arrays.hashCode}'s polynomial made keys that
   * differ in two columns (q5's auction and count) collide often enough to turn hash bins into
   * trees.
   */
  private static final class Prefix {
    final byte[] bytes;
    private final int hash;

    Prefix(byte[] bytes) {
      this.bytes = bytes;
      long h = 0xcbf29ce484222325L;
      for (byte b : bytes) {
        h = (h ^ (b & 0xff)) * 0x100000001b3L;
      }
      this.hash = (int) (h ^ (h >>> 32));
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Prefix p && hash == p.hash && Arrays.equals(bytes, p.bytes);
    }

    @Override
    public int hashCode() {
      return hash;
    }

    @Override
    public String toString() {
      return Keys.hex(bytes);
    }
  }

  /** A cached row and how many times the side holds it. */
  private static final class Counted {
    final Row row;
    long times;

    Counted(Row row, long times) {
      this.row = row;
      this.times = times;
    }
  }

  /** The cached rows of one key: those whose storage key is at or after {@link #from}. */
  private static final class Suffix {
    final TreeMap<byte[], Counted> rows = new TreeMap<>(Keys.ORDER);
    byte[] from;

    Suffix(byte[] from) {
      this.from = from;
    }
  }

  /**
   * A side of rows {@code width} wide over {@code table} (laid out as the class describes, ordered
   * by {@code bound}'s column after the join key columns {@code keys}); {@code filtered} when the
   * row types allow filters.
   */
  SortedJoinSide(
      StateTable table,
      int[] keys,
      int width,
      RangeBound bound,
      long capacity,
      int filterBits,
      boolean filtered) {
    this.table = table;
    this.keys = keys;
    this.width = width;
    this.bound = bound;
    this.capacity = capacity;
    this.filterBits = filterBits;
    this.filtered = filtered;
    this.rowColumns = new int[width];
    for (int i = 0; i < width; i++) {
      rowColumns[i] = i;
    }
  }

  @Override
  public int[] keys() {
    return keys;
  }

  @Override
  public boolean appendOnly() {
    return false;
  }

  @Override
  public void init(long epoch) {
    table.init(epoch);
    cache.clear();
    recent.clear();
    cachedUnits = 0;
    if (!filtered) {
      return;
    }
    filter = new KeyFilter(filterBits);
    rowFilter = new KeyFilter(filterBits);
    try (StateTable.CloseableRows rows = table.iterAll()) {
      while (rows.hasNext()) {
        Row stored = rows.next();
        filter.add(stored.project(keys));
        rowFilter.add(stored.project(rowColumns));
      }
    }
  }

  @Override
  public void forEachMatch(Row key, Row probe, RowVisitor visitor) {
    Object b = probe.get(bound.otherColumn());
    if (b == null) {
      return; // a comparison with NULL is never true
    }
    byte[] start = table.keyOf(key.concat(Row.of(b)));
    Suffix e = cover(key, table.keyOf(key), start);
    if (e == null) {
      return;
    }
    for (Counted c : e.rows.tailMap(start, true).values()) {
      visitor.visit(c.row, c.times);
    }
  }

  /**
   * The cache entry of {@code key} (whose encoding is {@code prefix}), grown to hold every row from
   * {@code start} on: the missing part, {@code [start, from)}, is read. Null when the key filter
   * says the key was never written.
   */
  private Suffix cover(Row key, byte[] prefix, byte[] start) {
    Prefix p = new Prefix(prefix);
    Suffix e = cache.get(p);
    if (e == null) {
      if (filter != null && !filter.mayContain(key)) {
        return null;
      }
      e = new Suffix(Keys.prefixEnd(prefix));
      cache.put(p, e);
      cachedUnits++;
    }
    if (Keys.compare(start, e.from) < 0) {
      try (StateTable.CloseableRows rows = table.iterKeys(start, e.from)) {
        while (rows.hasNext()) {
          Row stored = rows.next();
          Counted c = new Counted(stored.project(rowColumns), (Long) stored.get(width));
          if (e.rows.put(rows.key(), c) == null) {
            cachedUnits++;
          }
        }
      }
      e.from = start;
    }
    return e;
  }

  /**
   * Deletes every row under {@code key} whose bound column lies below {@code below}, once the other
   * side's value under the key has grown to {@code below} and can never fall again: such a row can
   * never match. {@code from} is the value it grew from (the rows below it are already gone, so
   * only those from it on are read), or null when the key had no value before (every row below
   * {@code below} is read). Returns how many distinct rows were deleted.
   */
  int dropBelow(Row key, Object below, Object from) {
    byte[] prefix = table.keyOf(key);
    byte[] start = from == null ? prefix : table.keyOf(key.concat(Row.of(from)));
    byte[] end = table.keyOf(key.concat(Row.of(below)));
    if (Keys.compare(start, end) >= 0) {
      return 0;
    }
    Suffix e = cover(key, prefix, start);
    if (e == null) {
      return 0;
    }
    Map<byte[], Counted> doomed = e.rows.subMap(start, true, end, false);
    int n = doomed.size();
    for (byte[] k : doomed.keySet()) {
      table.deleteAt(k);
      recent.remove(new Prefix(k));
    }
    doomed.clear();
    cachedUnits -= n;
    return n;
  }

  @Override
  public boolean apply(Row key, Row row, int sign) {
    byte[] k = table.keyOf(table.pkOf(row));
    Suffix e = cache.get(new Prefix(table.keyOf(key)));
    boolean inSuffix = e != null && Keys.compare(k, e.from) >= 0;
    Counted cached = inSuffix ? e.rows.get(k) : null;
    Prefix rowKey = new Prefix(k);
    long[] written = recent.get(rowKey);
    long old;
    if (cached != null) {
      old = cached.times;
    } else if (written != null) {
      old = written[0];
    } else if (inSuffix) {
      old = 0; // the cached suffix holds every row there
    } else if (filter != null && (!filter.mayContain(key) || !rowFilter.mayContain(row))) {
      old = 0; // a key or a row never written
    } else {
      Row stored = table.getAt(k);
      old = stored == null ? 0 : (Long) stored.get(width);
    }
    long next = old + sign;
    if (next < 0) {
      return false;
    }
    if (old == 0) {
      table.insertAt(k, row.concat(Row.of(next)));
    } else if (next == 0) {
      table.deleteAt(k);
    } else {
      table.updateAt(k, row.concat(Row.of(next)));
    }
    if (filter != null) {
      filter.add(key);
      rowFilter.add(row);
    }
    if (written != null) {
      written[0] = next;
    } else {
      recent.put(rowKey, new long[] {next});
    }
    if (inSuffix) {
      if (next == 0) {
        e.rows.remove(k);
        cachedUnits--;
      } else if (cached == null) {
        e.rows.put(k, new Counted(row, next));
        cachedUnits++;
      } else {
        cached.times = next;
      }
    }
    return true;
  }

  @Override
  public void commit(long curr, long prev) {
    table.commit(curr, prev);
  }

  @Override
  public void evict() {
    Iterator<long[]> rows = recent.values().iterator();
    while (recent.size() > capacity && rows.hasNext()) {
      rows.next();
      rows.remove();
    }
    Iterator<Map.Entry<Prefix, Suffix>> it = cache.entrySet().iterator();
    while (cachedUnits > capacity && it.hasNext()) {
      cachedUnits -= 1 + it.next().getValue().rows.size();
      it.remove();
    }
  }

  @Override
  public long cachedUnits() {
    return cachedUnits;
  }
}
