package dev.tideway.frontend.meta;

import java.time.Instant;
import java.util.Locale;

/**
 * One streaming job's progress as the frontend shows it ({@code SHOW JOBS}, {@code
 * rw_catalog.rw_ddl_progress}). Defined here because the barrier module has no progress record yet;
 * the meta service's tracker should fill exactly these fields.
 *
 * @param ddlId the job id (= the id of the relation being created)
 * @param statement the DDL text
 * @param createType {@code FOREGROUND} or {@code BACKGROUND}
 * @param initializedAt when the job started
 * @param phase where it is
 * @param consumedRows upstream rows read by the backfill so far
 * @param upstreamRows the denominator: upstream key count (an estimate unless {@code
 *     denominatorExact})
 * @param denominatorExact whether {@code upstreamRows} is exact
 * @param ratio consumed / upstream in [0, 1], clamped below 1 until the job is committed
 * @param rowsPerSecond recent backfill rate
 * @param etaSeconds estimated seconds left, null when unknown (or below 5 % done)
 * @param logStorePendingBarriers barriers buffered while catching up
 * @param logStoreLagMs how far the catch-up lags the upstream
 * @param stalledReason why it is not moving, null when it is
 */
public record JobProgress(
    long ddlId,
    String statement,
    String createType,
    Instant initializedAt,
    Phase phase,
    long consumedRows,
    long upstreamRows,
    boolean denominatorExact,
    double ratio,
    double rowsPerSecond,
    Long etaSeconds,
    long logStorePendingBarriers,
    long logStoreLagMs,
    String stalledReason) {

  /** The phases of a creating job. */
  public enum Phase {
    QUEUED,
    BACKFILLING,
    CATCHING_UP,
    FINISHING,
    FAILED
  }

  /** RisingWave's progress string: {@code 12.34% (1234/10000)}. */
  public String progressText() {
    double pct = Math.min(ratio * 100, phase == Phase.FINISHING ? 100 : 99.99);
    return String.format(Locale.ROOT, "%.2f%% (%d/%d)", pct, consumedRows, upstreamRows);
  }
}
