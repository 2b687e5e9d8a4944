package dev.tideway.meta.barrier;

import dev.tideway.barrier.control.TableStatsDelta;
import dev.tideway.barrier.progress.TableStatsLookup;
import dev.tideway.barrier.progress.TableStatsView;
import dev.tideway.protocol.catalog.VersionPointer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A version committer that keeps versions in memory with fixed table stats (the upstream table's
 * key count); it outlives meta leaders like an object store does. Records every committed epoch so
 * tests can check they rise.
 */
final class FakeVersions implements VersionCommitter<String> {
  private final Map<Integer, Long> keyCounts = new java.util.concurrent.ConcurrentHashMap<>();
  private VersionPointer pointer = new VersionPointer(0, 0, "mem://version");
  final List<Long> committed = new ArrayList<>();

  /** Commits to refuse (an object-store failure) before accepting again. */
  final java.util.concurrent.atomic.AtomicInteger failCommits =
      new java.util.concurrent.atomic.AtomicInteger();

  synchronized long durableEpoch() {
    return pointer.maxCommittedEpoch();
  }

  void setKeyCount(int tableId, long keys) {
    keyCounts.put(tableId, keys);
  }

  private TableStatsLookup stats() {
    List<TableStatsView> views = new ArrayList<>();
    keyCounts.forEach((t, n) -> views.add(new TableStatsView(t, n, null)));
    return TableStatsLookup.of(views);
  }

  @Override
  public synchronized CommittedVersion current() {
    return new CommittedVersion(pointer, stats());
  }

  @Override
  public synchronized CommittedVersion commit(
      List<Long> epochs, List<String> ssts, List<TableStatsDelta> statsDeltas) {
    if (failCommits.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      throw new IllegalStateException("injected object-store failure");
    }
    long last = epochs.get(epochs.size() - 1);
    if (last > pointer.maxCommittedEpoch()) {
      pointer = new VersionPointer(pointer.versionId() + 1, last, "mem://version");
      committed.add(last);
    }
    return new CommittedVersion(pointer, stats());
  }
}
