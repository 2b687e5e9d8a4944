package dev.tideway.meta.barrier;

import dev.tideway.barrier.control.TableStatsDelta;
import java.util.List;
import java.util.Set;

/** A version committer that shows each committed version's table stats to an observer. */
final class ObservedVersions<S> implements VersionCommitter<S> {
  private final VersionCommitter<S> delegate;
  private final BarrierObserver observer;

  ObservedVersions(VersionCommitter<S> delegate, BarrierObserver observer) {
    this.delegate = delegate;
    this.observer = observer;
  }

  @Override
  public CommittedVersion current() {
    return delegate.current();
  }

  @Override
  public CommittedVersion commit(
      List<Long> epochs, List<S> ssts, List<TableStatsDelta> statsDeltas) {
    CommittedVersion v = delegate.commit(epochs, ssts, statsDeltas);
    observer.onTableStats(v.stats());
    return v;
  }

  @Override
  public void dropTables(Set<Integer> tableIds) {
    delegate.dropTables(tableIds);
  }

  @Override
  public Set<Integer> tablesWithData() {
    return delegate.tablesWithData();
  }
}
