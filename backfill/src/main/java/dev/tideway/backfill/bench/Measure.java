package dev.tideway.backfill.bench;

import dev.tideway.barrier.progress.JobProgress;
import java.io.PrintWriter;

/** What one benchmark run measured. Single-threaded (the driver). */
final class Measure {
  long backfillNanos;
  long backfillCpuNanos;
  long writerNanos;
  long rowsOut;
  long changes;
  long snapshotRows;
  long finishMs = -1;
  long logDoneMs = -1;
  double maxAbsError;
  boolean monotone = true;
  double lastDisplay = -1;
  int samples;
  long etaAt50Seconds = -1;
  long at50Ms = -1;

  /** One committed epoch during the snapshot phase. */
  void observe(JobProgress p, double truth, long nowMs) {
    samples++;
    double display = p.displayRatio();
    maxAbsError = Math.max(maxAbsError, Math.abs(display - truth));
    monotone &= display >= lastDisplay;
    lastDisplay = display;
    if (at50Ms < 0 && truth >= 0.5) {
      at50Ms = nowMs;
      etaAt50Seconds = p.etaSeconds().orElse(-1);
    }
  }

  void print(PrintWriter out, double rawRowsPerS, double rawWallRowsPerS, long rows) {
    double backfill = snapshotRows * 1e9 / Math.max(1, backfillCpuNanos);
    double backfillWall = snapshotRows * 1e9 / Math.max(1, backfillNanos);
    double actual = (finishMs - at50Ms) / 1000.0;
    double etaError =
        at50Ms < 0 || etaAt50Seconds < 0 || actual <= 0
            ? Double.NaN
            : Math.abs(etaAt50Seconds - actual) / actual;
    out.printf("snapshot_rows=%d%n", snapshotRows);
    out.printf("rows_emitted=%d%n", rowsOut);
    out.printf("churn_changes=%d%n", changes);
    out.printf("backfill_ms=%d%n", backfillNanos / 1_000_000);
    out.printf("backfill_cpu_ms=%d%n", backfillCpuNanos / 1_000_000);
    out.printf("backfill_rows_per_s_wall=%.0f%n", backfillWall);
    out.printf("raw_scan_rows_per_s_wall=%.0f%n", rawWallRowsPerS);
    out.printf("writer_ms_excluded=%d%n", writerNanos / 1_000_000);
    out.printf("progress_samples=%d%n", samples);
    if (logDoneMs > finishMs && finishMs >= 0) {
      out.printf("log_store_catch_up_ms=%d%n", logDoneMs - finishMs);
    }
    out.printf("eta_at_50pct_s=%d%n", etaAt50Seconds);
    out.printf("actual_remaining_at_50pct_s=%.3f%n", actual);
    out.printf("backfill_rows_per_s=%.0f%n", backfill);
    out.printf("raw_scan_rows_per_s=%.0f%n", rawRowsPerS);
    out.printf("ratio=%.3f%n", backfill / rawRowsPerS);
    out.printf("progress_max_abs_error=%.4f%n", maxAbsError);
    out.printf("progress_monotone=%s%n", monotone);
    out.printf("eta_error_at_50pct=%.3f%n", etaError);
    out.printf(
        "summary: backfill of %d rows at %.0f rows/s = %.2f x raw scan; progress error %.4f,"
            + " monotone %s, ETA error at 50%% %.3f%n",
        rows, backfill, backfill / rawRowsPerS, maxAbsError, monotone, etaError);
  }
}
