package dev.tideway.backfill;

import dev.tideway.backfill.arrangement.ArrangementBackfillExecutor;
import dev.tideway.backfill.core.BackfillContext;
import dev.tideway.backfill.core.BackfillOptions;
import dev.tideway.backfill.noshuffle.NoShuffleBackfillExecutor;
import dev.tideway.backfill.snapshot.SnapshotBackfillExecutor;
import dev.tideway.backfill.state.BackfillStateTable;
import dev.tideway.backfill.state.UpstreamTable;
import dev.tideway.backfill.upstream.Upstream;
import dev.tideway.barrier.executor.Executor;
import dev.tideway.barrier.executor.ExecutorInfo;
import dev.tideway.barrier.progress.CreateMviewProgressReporter;
import dev.tideway.common.check.Checks;
import dev.tideway.common.plan.BackfillKind;
import dev.tideway.common.plan.StreamNode;
import dev.tideway.common.plan.TableDesc;
import dev.tideway.common.time.Clock;
import dev.tideway.storage.api.StateStore;
import java.util.BitSet;

/**
 * Builds the backfill executor of a {@code StreamScan}: the one call the compute node's executor
 * builder makes. The returned executor reads the upstream table's existing rows and its live
 * changes from {@code upstream} (any executor emitting the upstream table's full rows, e.g. a merge
 * of the upstream actors' outputs), emits the scan's output columns, persists its state in the
 * scan's {@code backfillStateTable} and reports progress through {@code reporter}. It implements
 * {@link AutoCloseable}: close it when the actor stops.
 *
 * <p>Stateless.
 */
public final class Backfills {
  private Backfills() {}

  /**
   * Everything a backfill executor needs.
   *
   * @param vnodes the upstream table's vnodes this actor owns
   */
  public record Args(
      StreamNode.StreamScan scan,
      TableDesc upstreamTable,
      Executor upstream,
      StateStore store,
      BitSet vnodes,
      ExecutorInfo info,
      CreateMviewProgressReporter reporter,
      Clock clock,
      BackfillOptions options) {}

  /** The executor for {@code scan} with default options. */
  public static Executor create(
      StreamNode.StreamScan scan,
      TableDesc upstreamTable,
      Executor upstream,
      StateStore store,
      BitSet vnodes,
      int actorId,
      CreateMviewProgressReporter reporter,
      Clock clock) {
    return create(
        new Args(
            scan,
            upstreamTable,
            upstream,
            store,
            vnodes,
            new ExecutorInfo(actorId, 0, "StreamScan"),
            reporter,
            clock,
            BackfillOptions.DEFAULT));
  }

  /** The executor for {@code args.scan()}; fails naming the mismatch when the inputs disagree. */
  public static Executor create(Args a) {
    Checks.checkArgument(
        a.scan().upstreamTableId() == a.upstreamTable().tableId(),
        "%s: StreamScan reads table %s but the upstream table given is %s",
        a.info(),
        a.scan().upstreamTableId(),
        a.upstreamTable().tableId());
    Checks.checkArgument(
        a.upstream().schema().types().equals(a.upstreamTable().types()),
        "%s: the upstream executor emits %s but table %s has columns %s",
        a.info(),
        a.upstream().schema().types(),
        a.upstreamTable().tableId(),
        a.upstreamTable().types());
    BackfillKind kind = a.scan().backfillKind();
    Checks.checkArgument(
        kind != BackfillKind.SNAPSHOT || a.upstreamTable().changeLog(),
        "%s: snapshot backfill of table %s needs the table's change log (TableDesc.changeLog)",
        a.info(),
        a.upstreamTable().tableId());
    UpstreamTable table = new UpstreamTable(a.upstreamTable(), a.scan().outputColumns());
    BackfillStateTable state =
        BackfillStateTable.open(
            a.store(), a.scan().backfillStateTable(), table, kind == BackfillKind.SNAPSHOT);
    BackfillContext ctx =
        new BackfillContext(
            a.info(),
            table,
            new Upstream(a.upstream()),
            a.store(),
            state,
            a.vnodes(),
            a.reporter(),
            a.clock(),
            a.options());
    return switch (kind) {
      case ARRANGEMENT -> new ArrangementBackfillExecutor(ctx);
      case NO_SHUFFLE -> new NoShuffleBackfillExecutor(ctx);
      case SNAPSHOT -> new SnapshotBackfillExecutor(ctx);
    };
  }

  /**
   * The canonical state table layout for a scan of {@code upstream}; see {@link
   * BackfillStateTable}.
   */
  public static TableDesc stateTableLayout(int tableId, String name, TableDesc upstream) {
    return BackfillStateTable.layout(tableId, name, upstream);
  }
}
