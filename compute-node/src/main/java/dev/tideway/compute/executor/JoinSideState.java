package dev.tideway.compute.executor;

import dev.tideway.common.check.Checks;
import dev.tideway.common.row.Row;
import dev.tideway.common.types.DataType;
import dev.tideway.common.vnode.VnodeHasher;
import dev.tideway.storage.table.StateTable;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One side of a {@link HashJoinExecutor}: its state table, an LRU cache of join keys, and a {@link
 * KeyFilter} over the join keys written to the table.
 *
 * <p>Cache. A cached key holds every row the table has under that key (with its multiplicity): it
 * is loaded whole by one prefix scan on a probe miss, and every write of the side goes through
 * {@link #apply}, which updates a cached key in place. So a cached entry always equals the table.
 * The cache counts one unit per key plus one per distinct row; it may outgrow {@code capacity}
 * inside an epoch and is trimmed, least recently used key first, at barriers ({@link #evict}).
 *
 * <p>Reads avoided: a probe of a key the filter has never seen matches nothing without a scan, and
 * a write whose key is cached or unseen knows the row's multiplicity without a read (an unseen key
 * then enters the cache whole: its only row is the one just written). A second filter over whole
 * rows makes the write of a row never written before blind even when its key is known but not
 * cached (q7's bids under a repeated price); reads from committed state (SSTs) are far costlier
 * than a filter probe. A write of a row the row filter may hold, under an uncached key, reads that
 * one row (a point get through the stores' hash indexes and SST bloom filters), never the whole
 * key: a hot key holds thousands of rows, and only probes need them all.
 *
 * <p>Rows of a side with a DECIMAL or float column are neither cached nor filtered (Java equality
 * differs from key equality there, see {@link KeyFilter#exact}): every probe scans, every write
 * reads.
 *
 * <p>Append-only sides (the plan's table desc says {@code appendOnly}: the side's input only
 * inserts, as a source's rows do) keep no multiplicity: each row is stored under the key (join key,
 * epoch, sequence within the epoch), an identity no other write can have, so every write is blind
 * (no read, no row filter) and a cached key is a plain list of its rows. Such a side caches only
 * the keys a probe loaded, not every key written. Identical rows stay separate entries and match
 * once each, as a multiplicity would make them. A delete fails the actor.
 *
 * <p>Recovery: the state lives only in the executor, which is rebuilt on recovery; {@link #init}
 * drops the cache and rebuilds the filter from the table, so nothing cached survives a recovery. An
 * append-only side numbers its rows from each epoch it is in, and a recovered side starts at an
 * epoch after every one written before, so identities never repeat.
 *
 * <p>Confined to the join's actor thread.
 */
final class JoinSideState implements JoinSide {
  final StateTable table;
  final int[] keys;
  final int width;
  private final VnodeHasher keyVnode;
  private final long capacity;
  private final int filterBits;
  private final int[] rowColumns;

  /** Cached keys, least recently used first; each maps row → {multiplicity}. */
  private final LinkedHashMap<Row, LinkedHashMap<Row, long[]>> cache =
      new LinkedHashMap<>(64, 0.75f, true);

  /** An append-only side's cached keys, least recently used first; each lists its rows. */
  private final LinkedHashMap<Row, ArrayList<Row>> appended = new LinkedHashMap<>(64, 0.75f, true);

  /** Rows inserted only: stored by (key, epoch, sequence), no multiplicity. */
  private final boolean appendOnly;

  /** The epoch being written and the next sequence number in it (append-only sides). */
  private long epoch;

  private long sequence;

  /** Keys plus rows held in {@link #cache}. */
  private long cachedUnits;

  /** Null when the side's types allow neither filter nor cache: every probe and write reads. */
  private KeyFilter filter;

  /** Whole rows written (null with {@link #filter}): an unseen row's write needs no read. */
  private KeyFilter rowFilter;

  private final boolean exact;

  JoinSideState(
      StateTable table,
      int[] keys,
      List<DataType> types,
      VnodeHasher keyVnode,
      long capacity,
      int bits,
      boolean appendOnly) {
    Checks.checkArgument(capacity > 0, "join cache capacity must be > 0, got %s", capacity);
    this.table = table;
    this.appendOnly = appendOnly;
    this.keys = keys;
    this.width = types.size();
    this.exact = KeyFilter.exact(types);
    this.keyVnode = keyVnode;
    this.capacity = capacity;
    this.filterBits = bits;
    this.rowColumns = new int[width];
    for (int i = 0; i < width; i++) {
      rowColumns[i] = i;
    }
  }

  @Override
  public int[] keys() {
    return keys;
  }

  /** Whether the side stores rows by identity, inserts only ({@link JoinSideState}). */
  @Override
  public boolean appendOnly() {
    return appendOnly;
  }

  /** Initialises the table at {@code epoch}; drops the cache and rebuilds the key filter. */
  @Override
  public void init(long epoch) {
    table.init(epoch);
    this.epoch = epoch;
    this.sequence = 0;
    cache.clear();
    appended.clear();
    cachedUnits = 0;
    if (!exact) {
      return;
    }
    filter = new KeyFilter(filterBits);
    rowFilter = appendOnly ? null : new KeyFilter(filterBits);
    try (StateTable.CloseableRows rows = table.iterAll()) {
      while (rows.hasNext()) {
        Row stored = rows.next();
        filter.add(stored.project(keys));
        if (!appendOnly) {
          rowFilter.add(stored.project(rowColumns));
        }
      }
    }
  }

  /** Every row under {@code key}: this layout has no order to bound a probe by. */
  @Override
  public void forEachMatch(Row key, Row probe, RowVisitor visitor) {
    forEachRow(key, visitor);
  }

  /** Visits every row under {@code key} with its multiplicity, in pk order for a loaded key. */
  void forEachRow(Row key, RowVisitor visitor) {
    if (appendOnly) {
      ArrayList<Row> list = appended.get(key);
      if (list == null) {
        if (filter != null && !filter.mayContain(key)) {
          return;
        }
        list = loadAppended(key);
      }
      for (int i = 0; i < list.size(); i++) {
        visitor.visit(list.get(i), 1);
      }
      return;
    }
    LinkedHashMap<Row, long[]> e = cache.get(key);
    if (e == null) {
      if (filter != null && !filter.mayContain(key)) {
        return;
      }
      e = load(key);
    }
    for (Map.Entry<Row, long[]> m : e.entrySet()) {
      visitor.visit(m.getKey(), m.getValue()[0]);
    }
  }

  /** Reads every row under {@code key}; caches them when the side's types allow. */
  private LinkedHashMap<Row, long[]> load(Row key) {
    LinkedHashMap<Row, long[]> e = new LinkedHashMap<>();
    try (StateTable.CloseableRows rs = table.iter(keyVnode.vnode(key), key)) {
      while (rs.hasNext()) {
        Row stored = rs.next();
        e.put(stored.project(rowColumns), new long[] {(Long) stored.get(width)});
      }
    }
    if (exact) {
      cache.put(key, e);
      cachedUnits += 1 + e.size();
    }
    return e;
  }

  /** Reads every row under {@code key} of an append-only side; caches them when allowed. */
  private ArrayList<Row> loadAppended(Row key) {
    ArrayList<Row> list = new ArrayList<>();
    try (StateTable.CloseableRows rs = table.iter(keyVnode.vnode(key), key)) {
      while (rs.hasNext()) {
        list.add(rs.next().project(rowColumns));
      }
    }
    if (exact) {
      appended.put(key, list);
      cachedUnits += 1 + list.size();
    }
    return list;
  }

  /**
   * Adds {@code sign} (+1 or -1) to the multiplicity of {@code row} under {@code key}, in the table
   * and, when cached, in the cache. Returns false for a delete of a row the side does not hold.
   */
  @Override
  public boolean apply(Row key, Row row, int sign) {
    if (appendOnly) {
      return append(key, row, sign);
    }
    LinkedHashMap<Row, long[]> e = cache.get(key);
    boolean unseenRow = e == null && rowFilter != null && !rowFilter.mayContain(row);
    long old;
    if (e != null) {
      long[] c = e.get(row);
      old = c == null ? 0 : c[0];
    } else if (filter != null && !filter.mayContain(key)) {
      old = 0; // the key holds nothing: after this write the cache knows all of it
      e = new LinkedHashMap<>();
      cache.put(key, e);
      cachedUnits++;
    } else if (unseenRow) {
      old = 0; // the key holds other rows, but never this one: a blind write, key left uncached
    } else {
      // a row this side may hold (or a filter false positive): one point read, not a load of
      // every row under the key (a hot key holds thousands)
      Row stored = table.get(table.pkOf(row.concat(Row.of(0L))));
      old = stored == null ? 0 : (Long) stored.get(width);
    }
    long next = old + sign;
    if (next < 0) {
      return false;
    }
    if (old == 0) {
      table.insert(row.concat(Row.of(next)));
    } else if (next == 0) {
      table.delete(row.concat(Row.of(old)));
    } else {
      table.update(row.concat(Row.of(old)), row.concat(Row.of(next)));
    }
    if (filter != null) {
      filter.add(key);
      rowFilter.add(row);
    }
    if (e != null) {
      if (next == 0) {
        e.remove(row);
        cachedUnits--;
      } else if (old == 0) {
        e.put(row, new long[] {next});
        cachedUnits++;
      } else {
        e.get(row)[0] = next;
      }
    }
    return true;
  }

  /**
   * An append-only side's write: a blind insert under a fresh identity; false for a delete (such a
   * side holds no row a delete could name).
   */
  private boolean append(Row key, Row row, int sign) {
    if (sign < 0) {
      return false;
    }
    // only keys a probe loaded are cached: most keys of an append-only side are written far more
    // often than probed (q7's bids by price), and a cache of every written key made each insert a
    // lookup in a map too large for the CPU caches
    ArrayList<Row> list = appended.isEmpty() ? null : appended.get(key);
    table.insert(row.concat(Row.of(epoch, sequence++)));
    if (filter != null) {
      filter.add(key);
    }
    if (list != null) {
      list.add(row);
      cachedUnits++;
    }
    return true;
  }

  /** Seals the epoch's writes ({@link StateTable#commit}) and starts numbering {@code curr}. */
  @Override
  public void commit(long curr, long prev) {
    table.commit(curr, prev);
    epoch = curr;
    sequence = 0;
  }

  /** Trims the cache to its capacity, least recently used keys first (call at barriers). */
  @Override
  public void evict() {
    Iterator<LinkedHashMap<Row, long[]>> it = cache.values().iterator();
    while (cachedUnits > capacity && it.hasNext()) {
      cachedUnits -= 1 + it.next().size();
      it.remove();
    }
    Iterator<ArrayList<Row>> lists = appended.values().iterator();
    while (cachedUnits > capacity && lists.hasNext()) {
      cachedUnits -= 1 + lists.next().size();
      lists.remove();
    }
  }

  /** Keys plus rows cached (for tests of the bound). */
  @Override
  public long cachedUnits() {
    return cachedUnits;
  }
}
