package dev.tideway.barrier.progress;

import java.util.Locale;

/**
 * Renders {@link JobProgress} to the strings RisingWave shows in {@code rw_ddl_progress} and {@code
 * SHOW JOBS}, so its docs and tooling stay useful: {@code "56.12% (561200/1000000)"}, {@code
 * "99.99%"} (no denominator yet), {@code "N rows consumed"} (source backfill), {@code "MView
 * Backfill: …, Source Backfill: …"}, {@code "Snapshot [..]"}, {@code "LogStore [actor: 3/4, avg lag
 * 1.2s]"}, {@code "100%"}. The percentage is the monotone display ratio; the structured columns
 * keep the raw one.
 */
public final class ProgressRendering {
  private ProgressRendering() {}

  public static String render(JobProgress p) {
    if (p.phase() == JobPhase.DONE) {
      return "100%";
    }
    if (p.mode() == BackfillMode.SNAPSHOT) {
      if (p.actorsDone() < p.actorsTotal()) {
        return "Snapshot [" + mviewPart(p) + "]";
      }
      return "LogStore [actor: "
          + p.logStoreActorsDone()
          + "/"
          + p.actorsTotal()
          + ", avg lag "
          + duration(p.logStoreLagMs())
          + "]";
    }
    boolean hasTable = p.tableActors() > 0;
    boolean hasSource = p.tableActors() < p.actorsTotal();
    if (hasTable && hasSource) {
      return "MView Backfill: " + mviewPart(p) + ", Source Backfill: " + sourcePart(p);
    }
    if (hasSource) {
      return sourcePart(p);
    }
    if (hasTable) {
      return mviewPart(p);
    }
    return "Unknown";
  }

  private static String mviewPart(JobProgress p) {
    long total = p.denominator();
    if (total == 0) {
      return "99.99%";
    }
    double ratio =
        p.tableActors() == p.actorsTotal()
            ? p.displayRatio() // the monotone ratio is the tables' own
            : Math.min((double) p.consumedRows() / total, JobTracker.MAX_BELOW_DONE);
    return String.format(Locale.ROOT, "%.2f%% (%d/%d)", ratio * 100.0, p.consumedRows(), total);
  }

  private static String sourcePart(JobProgress p) {
    long total = p.sourceOffsetTotal();
    if (total <= 0) {
      return p.sourceConsumedRows() + " rows consumed";
    }
    double ratio =
        p.tableActors() == 0
            ? p.displayRatio() // the monotone ratio is the sources' own
            : Math.min((double) p.sourceConsumedRows() / total, JobTracker.MAX_BELOW_DONE);
    return String.format(
        Locale.ROOT, "%.2f%% (%d/%d offsets)", ratio * 100.0, p.sourceConsumedRows(), total);
  }

  /**
   * A duration like Rust's {@code Duration} debug form: {@code 0ns}, {@code 350ms}, {@code 1.2s}.
   */
  static String duration(long ms) {
    if (ms <= 0) {
      return "0ns";
    }
    if (ms < 1000) {
      return ms + "ms";
    }
    String s = String.format(Locale.ROOT, "%.3f", ms / 1000.0);
    s = s.replaceAll("0+$", "").replaceAll("\\.$", "");
    return s + "s";
  }
}
