package dev.tideway.backfill.core;

import dev.tideway.backfill.state.BackfillStateTable;
import dev.tideway.backfill.state.UpstreamTable;
import dev.tideway.backfill.upstream.Upstream;
import dev.tideway.barrier.executor.ExecutorInfo;
import dev.tideway.barrier.progress.CreateMviewProgressReporter;
import dev.tideway.common.check.Checks;
import dev.tideway.common.time.Clock;
import dev.tideway.storage.api.StateStore;
import java.util.BitSet;

/**
 * Everything a backfill executor is built from (one record instead of ten constructor parameters).
 *
 * @param vnodes the upstream vnodes this actor backfills (a copy is kept)
 */
public record BackfillContext(
    ExecutorInfo info,
    UpstreamTable upstreamTable,
    Upstream upstream,
    StateStore store,
    BackfillStateTable state,
    BitSet vnodes,
    CreateMviewProgressReporter reporter,
    Clock clock,
    BackfillOptions options) {
  public BackfillContext {
    Checks.checkNotNull(info, "executor info");
    Checks.checkNotNull(upstreamTable, "upstream table");
    Checks.checkNotNull(upstream, "upstream");
    Checks.checkNotNull(store, "state store");
    Checks.checkNotNull(state, "backfill state table");
    Checks.checkNotNull(reporter, "progress reporter");
    Checks.checkNotNull(clock, "clock");
    Checks.checkNotNull(options, "options");
    Checks.checkArgument(
        vnodes != null && !vnodes.isEmpty(), "%s: backfill actor owns no vnode", info);
    vnodes = (BitSet) vnodes.clone();
  }

  @Override
  public BitSet vnodes() {
    return (BitSet) vnodes.clone();
  }

  /** The owned vnodes in ascending order. */
  public int[] vnodeList() {
    return vnodes.stream().toArray();
  }
}
