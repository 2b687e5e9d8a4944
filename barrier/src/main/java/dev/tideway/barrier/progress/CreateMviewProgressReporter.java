package dev.tideway.barrier.progress;

import static dev.tideway.barrier.progress.BackfillState.CONSUMING_LOG_STORE;
import static dev.tideway.barrier.progress.BackfillState.CONSUMING_UPSTREAM;
import static dev.tideway.barrier.progress.BackfillState.DONE;
import static dev.tideway.barrier.progress.BackfillState.DONE_CONSUMING_LOG_STORE;
import static dev.tideway.barrier.progress.BackfillState.INIT;

import dev.tideway.barrier.epoch.EpochPair;
import dev.tideway.common.check.Checks;

/**
 * One per backfill actor. The backfill executor calls it <b>before yielding each barrier</b>, so
 * the report travels with that barrier's epoch: {@link #update} while reading the snapshot, {@link
 * #finish} in the epoch that persists {@code finished = true}, then for snapshot backfill {@link
 * #updateLogStoreProgress} and {@link #finishConsumingLogStore}.
 *
 * <p>Row counts are cumulative and absolute: after recovery the executor passes the count restored
 * from its state table, never a counter that restarts at zero. Epochs, consumed epochs and rows
 * never go backwards, and phases only move forward; a violation throws naming the actor and the
 * values.
 *
 * <p>Confined to the actor thread. Allocation-free per call.
 */
public final class CreateMviewProgressReporter {
  private final int actorId;
  private final ProgressSink sink;
  private byte code = INIT;
  private long lastEpoch = -1;
  private long consumedEpoch;
  private long rows;
  private long pendingBarriers;

  public CreateMviewProgressReporter(int actorId, ProgressSink sink) {
    this.actorId = actorId;
    this.sink = Checks.checkNotNull(sink, "progress sink");
  }

  public int actorId() {
    return actorId;
  }

  /**
   * Snapshot backfill progress: read up to {@code consumedEpoch}, {@code cumulativeRows} in all.
   */
  public void update(EpochPair epoch, long consumedEpoch, long cumulativeRows) {
    checkEpochAndRows(epoch, cumulativeRows, "update");
    Checks.checkState(
        code <= CONSUMING_UPSTREAM,
        "actor %s: update at %s after the snapshot finished (state %s)",
        actorId,
        epoch,
        state());
    Checks.checkState(
        consumedEpoch >= this.consumedEpoch,
        "actor %s: consumed epoch went back from %s to %s at %s",
        actorId,
        this.consumedEpoch,
        consumedEpoch,
        epoch);
    this.consumedEpoch = consumedEpoch;
    emit(epoch, CONSUMING_UPSTREAM, consumedEpoch, cumulativeRows);
  }

  /** Source backfill progress without a denominator: no consumed epoch, only rows. */
  public void updateForSourceBackfill(EpochPair epoch, long cumulativeRows) {
    update(epoch, 0, cumulativeRows);
  }

  /**
   * Source backfill progress with its denominator: {@code consumedOffsets} of the {@code
   * totalOffsets} between each partition's start and its end when the backfill began ({@link
   * SourceTotal}); {@code exact} is false once offsets were seen that hold no row (transaction
   * markers, compaction, records that did not parse).
   */
  public void updateForSourceBackfill(
      EpochPair epoch, long consumedOffsets, long totalOffsets, boolean exact) {
    checkEpochAndRows(epoch, consumedOffsets, "updateForSourceBackfill");
    Checks.checkState(
        code <= CONSUMING_UPSTREAM,
        "actor %s: source backfill progress at %s after it finished (state %s)",
        actorId,
        epoch,
        state());
    emit(epoch, CONSUMING_UPSTREAM, SourceTotal.pack(totalOffsets, exact), consumedOffsets);
  }

  /** The source backfill handed every partition over to the shared source; idempotent. */
  public void finishSourceBackfill(
      EpochPair epoch, long consumedOffsets, long totalOffsets, boolean exact) {
    checkEpochAndRows(epoch, consumedOffsets, "finishSourceBackfill");
    emit(epoch, DONE, SourceTotal.pack(totalOffsets, exact), consumedOffsets);
  }

  /** The snapshot is exhausted; idempotent (a repeated finish re-reports, rows may only grow). */
  public void finish(EpochPair epoch, long cumulativeRows) {
    checkEpochAndRows(epoch, cumulativeRows, "finish");
    if (code > DONE) {
      lastEpoch = epoch.curr();
      return; // already in the log-store phase: finishing the snapshot again changes nothing
    }
    emit(epoch, DONE, 0, cumulativeRows);
  }

  /** Snapshot backfill phase 2: {@code pendingBarrierNum} upstream barriers still to consume. */
  public void updateLogStoreProgress(EpochPair epoch, long pendingBarrierNum) {
    checkEpochAndRows(epoch, rows, "updateLogStoreProgress");
    Checks.checkState(
        code == DONE || code == CONSUMING_LOG_STORE,
        "actor %s: log store progress at %s is legal only after the snapshot finished (state %s)",
        actorId,
        epoch,
        state());
    Checks.checkArgument(
        pendingBarrierNum >= 0,
        "actor %s: pending barrier count must be >= 0, got %s",
        actorId,
        pendingBarrierNum);
    pendingBarriers = pendingBarrierNum;
    emit(epoch, CONSUMING_LOG_STORE, pendingBarrierNum, rows);
  }

  /** Snapshot backfill caught up with upstream; idempotent. */
  public void finishConsumingLogStore(EpochPair epoch) {
    checkEpochAndRows(epoch, rows, "finishConsumingLogStore");
    Checks.checkState(
        code >= DONE,
        "actor %s: finishConsumingLogStore at %s is legal only after the snapshot finished (state %s)",
        actorId,
        epoch,
        state());
    pendingBarriers = 0;
    emit(epoch, DONE_CONSUMING_LOG_STORE, 0, rows);
  }

  /** The last reported state. */
  public BackfillState state() {
    return BackfillState.decode(
        code, code == CONSUMING_LOG_STORE ? pendingBarriers : consumedEpoch, rows);
  }

  /**
   * How many of the actor's {@code owned} vnodes have exhausted their snapshot ({@link
   * BackfillVnodes}), reported beside {@link #update} in the same epoch; it changes no state.
   */
  public void reportVnodes(EpochPair epoch, int done, int owned) {
    sink.reportProgress(epoch, actorId, BackfillVnodes.CODE, done, owned);
  }

  private void checkEpochAndRows(EpochPair epoch, long cumulativeRows, String call) {
    Checks.checkState(
        epoch.curr() >= lastEpoch,
        "actor %s: %s at epoch %s after a report at epoch %s",
        actorId,
        call,
        epoch.curr(),
        lastEpoch);
    Checks.checkState(
        cumulativeRows >= rows,
        "actor %s: %s at %s: cumulative rows went back from %s to %s",
        actorId,
        call,
        epoch,
        rows,
        cumulativeRows);
  }

  private void emit(EpochPair epoch, byte newCode, long a, long cumulativeRows) {
    lastEpoch = epoch.curr();
    code = newCode;
    rows = cumulativeRows;
    sink.reportProgress(epoch, actorId, newCode, a, cumulativeRows);
  }
}
