package dev.tideway.storage.compaction;

import dev.tideway.common.fault.FailPoints;
import dev.tideway.storage.api.CompactionJob;
import dev.tideway.storage.api.CompactionOutcome;
import dev.tideway.storage.api.Epochs;
import dev.tideway.storage.api.KeyRange;
import dev.tideway.storage.api.Keys;
import dev.tideway.storage.api.SstInfo;
import dev.tideway.storage.api.TableStats;
import dev.tideway.storage.iterator.EntryIterator;
import dev.tideway.storage.iterator.MergeIterator;
import dev.tideway.storage.sst.SstOutput;
import dev.tideway.storage.sst.SstReaders;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Executes a {@link CompactionJob}: merges the input SSTs (full scans, which re-check each file's
 * row checksum), drops what the job allows, writes the survivors to new SSTs and describes the
 * result as a {@link CompactionOutcome}: level edits plus the exact (negative) stats delta of the
 * dropped key versions. Runs on a compactor thread; touches no shared state.
 */
public final class CompactionRewriter {
  public static final String FP_BEFORE_WRITE = FailPoints.declare("compaction.before-write");
  public static final String FP_AFTER_WRITE = FailPoints.declare("compaction.after-write");

  private final SstReaders readers;
  private final SstOutput output;

  public CompactionRewriter(SstReaders readers, SstOutput output) {
    this.readers = readers;
    this.output = output;
  }

  public CompactionOutcome run(CompactionJob task) throws IOException {
    List<EntryIterator> sources = new ArrayList<>();
    for (List<SstInfo> ssts : task.inputs().values()) {
      for (SstInfo s : ssts) {
        sources.add(readers.get(s).iterator(KeyRange.ALL));
      }
    }
    FailPoints.hit(FP_BEFORE_WRITE);
    DropFilter filter = new DropFilter(new MergeIterator(sources), task);
    List<SstInfo> out;
    try (filter) {
      // an L0 merge writes one SST: L0 SSTs may overlap, so each must be a whole sorted run
      SstOutput to = task.targetLevel() == 0 ? output.unsplit() : output;
      out = to.write(filter, Math.max(16, task.inputRows()));
    }
    FailPoints.hit(FP_AFTER_WRITE);
    List<CompactionOutcome.LevelEdit> changes = new ArrayList<>();
    task.inputs()
        .forEach(
            (level, ssts) -> {
              List<Long> ids = ssts.stream().map(SstInfo::id).toList();
              changes.add(
                  new CompactionOutcome.LevelEdit(
                      level, ids, level == task.targetLevel() ? out : List.of()));
            });
    if (!task.inputs().containsKey(task.targetLevel())) {
      changes.add(new CompactionOutcome.LevelEdit(task.targetLevel(), List.of(), out));
    }
    long written = out.stream().mapToLong(SstInfo::fileSize).sum();
    return new CompactionOutcome(
        changes,
        filter.dropped,
        task.safeEpoch(),
        task.inputBytes(),
        written,
        filter.droppedKeys,
        filter.rows);
  }

  /**
   * Drops, per key, every version older than the newest one at or below the table's safe epoch, and
   * that one too when it is a tombstone at the bottom level, and every key of a dropped table.
   * Counts what it drops.
   */
  private static final class DropFilter implements EntryIterator {
    private final EntryIterator in;
    private final CompactionJob task;
    private final Map<Integer, TableStats> dropped = new HashMap<>();
    private byte[] key;
    private boolean seenAtOrBelowSafe;
    private long droppedKeys;
    private long rows;

    DropFilter(EntryIterator in, CompactionJob task) {
      this.in = in;
      this.task = task;
    }

    private long safeFor(int table) {
      Long retain = task.changeLogs().get(table);
      long safe = task.safeEpoch();
      return Epochs.visibleUpTo(retain == null ? safe : Math.min(safe, retain - 1));
    }

    @Override
    public boolean next() throws IOException {
      while (in.next()) {
        rows++;
        byte[] k = in.key();
        if (key == null || !Arrays.equals(k, key)) {
          key = k;
          seenAtOrBelowSafe = false;
        }
        int table = Keys.tableId(k);
        if (task.droppedTables().contains(table)) {
          droppedKeys++; // the version dropped its stats already
          continue;
        }
        if (in.epoch() > safeFor(table)) {
          return true;
        }
        boolean first = !seenAtOrBelowSafe;
        seenAtOrBelowSafe = true;
        if (first && !(in.isDelete() && task.bottom())) {
          return true;
        }
        droppedKeys++;
        TableStats.addInto(
            dropped, table, TableStats.ofEntry(k.length, in.value().length).negate());
      }
      return false;
    }

    @Override
    public byte[] key() {
      return in.key();
    }

    @Override
    public long epoch() {
      return in.epoch();
    }

    @Override
    public boolean isDelete() {
      return in.isDelete();
    }

    @Override
    public byte[] value() {
      return in.value();
    }

    @Override
    public void close() {
      in.close();
    }
  }
}
