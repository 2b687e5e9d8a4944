package dev.tideway.barrier.progress;

import java.util.Optional;
import java.util.OptionalLong;

/**
 * The structured progress of one creating job at one committed epoch. The human string is rendered
 * from these columns ({@link #render()}), never the other way round.
 *
 * @param epoch the committed epoch ({@code curr}) these figures belong to
 * @param consumedRows snapshot rows consumed by table backfill actors (the numerator)
 * @param sourceConsumedRows offsets consumed by source backfill actors (one per record in a topic
 *     without transactions or compaction)
 * @param sourceOffsetTotal Σ over the source backfill's partitions of (end offset when it began −
 *     start offset), 0 when unknown (not every source backfill actor reported yet)
 * @param upstreamKeyCount Σ scans × totalKeyCount of the upstream tables (the RisingWave formula)
 * @param upstreamLiveRows Σ scans × liveRowCount, when every upstream table knows it
 * @param denominatorExact true when the denominator is the exact live-row count (a source
 *     backfill's: when its offsets were all rows, no transaction markers or compaction gaps)
 * @param rawRatio consumedRows / denominator, unclamped (may exceed 1); NaN without denominator
 * @param displayRatio never decreases; below 1.0 until the job is done, exactly 1.0 when done
 * @param rowsPerSecond EWMA of consumed rows per second of epoch physical time
 * @param etaSeconds remaining rows / rate, when both are known
 * @param logStorePendingBarriers Σ pending upstream barriers of actors consuming their log store
 * @param logStoreLagMs average pending barriers × the observed barrier interval
 * @param actorsDone actors whose snapshot is done
 * @param logStoreActorsDone actors that drained their log store (snapshot backfill)
 * @param stalledReason why the job is PAUSED or STALLED
 */
public record JobProgress(
    long jobId,
    long epoch,
    BackfillMode mode,
    JobPhase phase,
    long consumedRows,
    long sourceConsumedRows,
    long sourceOffsetTotal,
    long upstreamKeyCount,
    OptionalLong upstreamLiveRows,
    boolean denominatorExact,
    double rawRatio,
    double displayRatio,
    double rowsPerSecond,
    OptionalLong etaSeconds,
    long logStorePendingBarriers,
    long logStoreLagMs,
    int actorsDone,
    int logStoreActorsDone,
    int actorsTotal,
    int tableActors,
    Optional<String> stalledReason) {

  /** The denominator used for the ratio: live rows when known, else the key count. */
  public long denominator() {
    return upstreamLiveRows.orElse(upstreamKeyCount);
  }

  /** Rows consumed by table backfills plus offsets consumed by source backfills. */
  public long totalConsumed() {
    return consumedRows + sourceConsumedRows;
  }

  /** The table denominator plus the source backfills' offset total. */
  public long totalDenominator() {
    return denominator() + sourceOffsetTotal;
  }

  public boolean isDone() {
    return phase == JobPhase.DONE;
  }

  /** The RisingWave-compatible string ({@code "56.12% (561200/1000000)"}, {@code "100%"}, …). */
  public String render() {
    return ProgressRendering.render(this);
  }
}
