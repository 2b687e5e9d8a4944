package dev.tideway.meta.version;

import dev.tideway.barrier.control.TableStatsDelta;
import dev.tideway.barrier.progress.TableStatsLookup;
import dev.tideway.meta.barrier.VersionCommitter;
import dev.tideway.protocol.catalog.VersionPointer;
import dev.tideway.storage.api.Epochs;
import dev.tideway.storage.api.SstInfo;
import dev.tideway.storage.api.Storage;
import dev.tideway.storage.api.TableStats;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The production {@link VersionCommitter}: commits each checkpoint to the storage engine's version
 * service ({@code commitEpoch}: the delta is durable in the object store when it returns), then
 * hands the barrier loop the version's pointer and table stats. The loop persists the pointer in
 * ZooKeeper afterwards, so nothing in ZooKeeper ever names a version the store lacks.
 *
 * <p>Stats per table = Σ the synced SSTs' per-table stats (keys, key and value bytes) + the
 * live-row deltas the nodes counted; the tracker reads {@code totalKeyCount}, and the exact
 * live-row count for tables {@code exactLiveRows} accepts.
 *
 * <p>Idempotent per epoch: an epoch at or below the store's committed epoch (a new leader
 * re-committing what its predecessor made durable before its ZooKeeper write failed) commits
 * nothing and returns the current version. A new leader calls {@link #current()} first, which
 * refreshes the store from the object store (a standby's view is stale).
 *
 * <p>Thread confinement: called on the barrier loop's thread; the storage is thread-safe.
 */
public final class StorageVersionCommitter implements VersionCommitter<SstInfo> {
  private static final Logger LOG = LoggerFactory.getLogger(StorageVersionCommitter.class);

  private final Storage storage;
  private final String location;
  private final IntPredicate exactLiveRows;

  /**
   * @param storage this meta process's store, opened as {@code StorageRole.versionOwner()}
   * @param location the store's URL, recorded in the ZooKeeper pointer
   * @param exactLiveRows the tables whose live-row count is maintained (tables, MVs), so progress
   *     may use it as an exact denominator
   */
  public StorageVersionCommitter(Storage storage, String location, IntPredicate exactLiveRows) {
    this.storage = storage;
    this.location = location;
    this.exactLiveRows = exactLiveRows;
  }

  /** Key counts only: no table's live-row count is trusted as exact. */
  public StorageVersionCommitter(Storage storage, String location) {
    this(storage, location, t -> false);
  }

  public Storage storage() {
    return storage;
  }

  @Override
  public CommittedVersion current() {
    storage.refresh(0);
    return committed();
  }

  @Override
  public CommittedVersion commit(
      List<Long> epochs, List<SstInfo> ssts, List<TableStatsDelta> statsDeltas) {
    long epoch = epochs.get(epochs.size() - 1);
    long stored = storage.committedEpoch();
    if (epoch <= stored) {
      LOG.info(
          "epoch {} is already committed in the store (at {}); not committing again",
          Epochs.format(epoch),
          Epochs.format(stored));
      return committed();
    }
    storage.commitEpoch(epoch, ssts, statsDelta(ssts, statsDeltas));
    return committed();
  }

  @Override
  public void dropTables(java.util.Set<Integer> tableIds) {
    storage.dropTables(tableIds);
    LOG.info("dropped the data of tables {}: {}", tableIds, storage.describeVersion());
  }

  @Override
  public java.util.Set<Integer> tablesWithData() {
    return java.util.Set.copyOf(storage.tableStats().keySet());
  }

  /** The storage stats delta of one checkpoint: SST stats plus counted live rows. */
  static Map<Integer, TableStats> statsDelta(List<SstInfo> ssts, List<TableStatsDelta> deltas) {
    Map<Integer, TableStats> out = new HashMap<>();
    for (SstInfo s : ssts) {
      s.tableStats()
          .forEach(
              (t, st) ->
                  TableStats.addInto(
                      out,
                      t,
                      new TableStats(
                          st.totalKeyCount(), st.totalKeyBytes(), st.totalValueBytes(), 0)));
    }
    for (TableStatsDelta d : deltas) {
      if (d.liveRowsTracked() && d.liveRowDelta() != 0) {
        TableStats.addInto(out, d.tableId(), new TableStats(0, 0, 0, d.liveRowDelta()));
      }
    }
    out.values().removeIf(TableStats::isZero);
    return out;
  }

  private CommittedVersion committed() {
    Map<Integer, TableStats> stats = storage.tableStats();
    VersionPointer p = new VersionPointer(storage.versionId(), storage.committedEpoch(), location);
    return new CommittedVersion(p, lookup(stats, exactLiveRows));
  }

  private static TableStatsLookup lookup(Map<Integer, TableStats> stats, IntPredicate exact) {
    return new TableStatsLookup() {
      @Override
      public long totalKeyCount(int tableId) {
        TableStats s = stats.get(tableId);
        return s == null ? 0 : s.totalKeyCount();
      }

      @Override
      public long liveRowCount(int tableId) {
        TableStats s = stats.get(tableId);
        return s == null || !exact.test(tableId) ? -1 : s.liveRowCount();
      }
    };
  }
}
