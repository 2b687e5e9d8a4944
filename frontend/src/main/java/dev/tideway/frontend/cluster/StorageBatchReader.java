package dev.tideway.frontend.cluster;

import dev.tideway.common.plan.ColumnOrder;
import dev.tideway.common.plan.TableDesc;
import dev.tideway.common.row.Row;
import dev.tideway.common.vnode.VirtualNode;
import dev.tideway.frontend.meta.BatchReader;
import dev.tideway.frontend.meta.PkRange;
import dev.tideway.storage.api.KeyRange;
import dev.tideway.storage.api.Keys;
import dev.tideway.storage.api.StateIterator;
import dev.tideway.storage.api.StateStore;
import dev.tideway.storage.table.RowCodecs;
import dev.tideway.storage.table.StateTable;
import dev.tideway.storage.table.StateTables;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.IntFunction;

/**
 * Batch reads for the frontend: a table's committed rows at an epoch, straight from the state
 * store, decoded with the same codecs the Materialize executor wrote them with ({@link
 * StateTables}). A {@link PkRange} becomes byte ranges over the memcomparable keys {@code table |
 * vnode | pk}: one {@code get} for a point lookup, one vnode's range when the equal pk prefix holds
 * the whole distribution key, else the same range in each of the {@link VirtualNode#COUNT} vnodes.
 *
 * <p>Thread-safe (the store is; each call keeps its own iterators).
 */
public final class StorageBatchReader implements BatchReader {
  private final StateStore store;
  private final IntFunction<TableDesc> tables;

  /**
   * @param tables the storage layout of a table id (from the catalog); fails for unknown ids
   */
  public StorageBatchReader(StateStore store, IntFunction<TableDesc> tables) {
    this.store = store;
    this.tables = tables;
  }

  @Override
  public List<Row> scan(int tableId, long epoch) {
    return scan(tableId, epoch, PkRange.ALL);
  }

  @Override
  public List<Row> scan(int tableId, long epoch, PkRange range) {
    TableDesc t = tables.apply(tableId);
    long at = readEpoch(epoch);
    if (at <= 0) {
      return List.of(); // nothing committed yet: every table is empty
    }
    RowCodecs codecs = StateTables.codecs(t);
    List<Row> out = new ArrayList<>();
    if (range.isAll()) {
      try (StateTable.CloseableRows rows = StateTable.readCommitted(store, tableId, codecs, at)) {
        rows.forEachRemaining(out::add);
      }
      return out;
    }
    int pkSize = t.pk().size();
    Optional<Integer> vnode = vnodeOf(t, codecs, range);
    if (range.isPoint(pkSize) && vnode.isPresent()) {
      byte[] v =
          store.get(Keys.key(tableId, vnode.get(), codecs.pk().encode(range.equalPrefix())), at);
      if (v != null) {
        out.add(codecs.value().decode(v));
      }
      return out;
    }
    int from = vnode.orElse(0);
    int to = vnode.map(v -> v + 1).orElse(t.distributionKey().isEmpty() ? 1 : VirtualNode.COUNT);
    for (int v = from; v < to; v++) {
      byte[][] bounds = bounds(t, codecs, range, v);
      try (StateIterator it = store.iter(KeyRange.of(bounds[0], bounds[1]), at)) {
        while (it.next()) {
          out.add(codecs.value().decode(it.value()));
        }
      }
    }
    return out;
  }

  /** The epoch to read at, or 0 when nothing is committed. */
  private long readEpoch(long epoch) {
    if (epoch > store.committedEpoch()) {
      store.refresh(epoch); // a follower may not have seen the leader's last commit yet
    }
    if (epoch <= 0 || store.committedEpoch() <= 0) {
      return 0;
    }
    // Read the store's latest committed version: every table of one version is consistent, while
    // an older epoch may lie below what compaction already folded (the ZooKeeper pointer can lag
    // the store by one commit after a restart).
    return store.committedEpoch();
  }

  /** The single vnode the range lies in, when its equal prefix holds the distribution key. */
  private static Optional<Integer> vnodeOf(TableDesc t, RowCodecs codecs, PkRange range) {
    if (t.distributionKey().isEmpty()) {
      return Optional.of(0);
    }
    List<Integer> pkIndices = t.pkIndices();
    Object[] pk = new Object[pkIndices.size()];
    for (int d : t.distributionKey()) {
      int pos = pkIndices.indexOf(d);
      if (pos < 0 || pos >= range.equal().size()) {
        return Optional.empty();
      }
    }
    for (int i = 0; i < range.equal().size(); i++) {
      pk[i] = range.equal().get(i);
    }
    return Optional.of(codecs.vnode().vnode(Row.of(pk)));
  }

  /**
   * {@code [start, end)} of the range inside one vnode. A bound on a descending column is a bound
   * on the other side in byte order.
   */
  private static byte[][] bounds(TableDesc t, RowCodecs codecs, PkRange range, int vnode) {
    List<Object> eq = range.equal();
    Optional<PkRange.Bound> lower = range.lower();
    Optional<PkRange.Bound> upper = range.upper();
    if (eq.size() < t.pk().size()) {
      ColumnOrder next = t.pk().get(eq.size());
      if (next.descending()) {
        Optional<PkRange.Bound> swap = lower;
        lower = upper;
        upper = swap;
      }
    }
    byte[] prefix = Keys.key(t.tableId(), vnode, codecs.pk().encode(Row.of(eq.toArray())));
    byte[] start =
        lower
            .map(
                b -> {
                  byte[] k = key(t, codecs, vnode, eq, b.value());
                  return b.inclusive() ? k : Keys.prefixEnd(k);
                })
            .orElse(prefix);
    byte[] end =
        upper
            .map(
                b -> {
                  byte[] k = key(t, codecs, vnode, eq, b.value());
                  return b.inclusive() ? Keys.prefixEnd(k) : k;
                })
            .orElse(Keys.prefixEnd(prefix));
    return new byte[][] {start, end};
  }

  private static byte[] key(
      TableDesc t, RowCodecs codecs, int vnode, List<Object> eq, Object next) {
    List<Object> values = new ArrayList<>(eq);
    values.add(next);
    return Keys.key(t.tableId(), vnode, codecs.pk().encode(Row.of(values.toArray())));
  }
}
