package dev.tideway.meta.dashboard;

/**
 * How true a finished backfill's progress was, measured afterwards (pure).
 *
 * <p>At each sample the dashboard showed a fraction; once the job is done its final row count is
 * known, so the fraction it really was at that sample is {@code consumed / finalRows}. The progress
 * error is the largest gap between the two over the samples: 0.02 means the bar was never more than
 * two points off. Rates come from the same samples: the average over the whole run, the peak
 * between consecutive samples at least a second apart.
 */
public final class ProgressAccuracy {
  private ProgressAccuracy() {}

  /**
   * @param error the largest |shown − measured| (NaN without samples or rows)
   * @param errorAtMs the sample of that gap (0 if none)
   * @param peakRowsPerSecond highest rate between samples at least 1 s apart (0 if none)
   * @param avgRowsPerSecond final rows over {@code endMs - startMs}
   */
  public record Figures(
      double error, long errorAtMs, double peakRowsPerSecond, double avgRowsPerSecond) {}

  /**
   * @param times sample times (ms), ascending
   * @param consumed rows consumed at each sample
   * @param shown the fraction displayed at each sample (NaN: nothing shown, skipped)
   * @param finalRows rows consumed in all
   */
  public static Figures measure(
      long[] times, double[] consumed, double[] shown, long finalRows, long startMs, long endMs) {
    double error = Double.NaN;
    long errorAt = 0;
    double peak = 0;
    int prev = -1;
    for (int i = 0; i < times.length; i++) {
      if (Double.isNaN(consumed[i])) {
        continue;
      }
      if (finalRows > 0 && !Double.isNaN(shown[i])) {
        double gap = Math.abs(shown[i] - Math.min(1.0, consumed[i] / finalRows));
        if (Double.isNaN(error) || gap > error) {
          error = gap;
          errorAt = times[i];
        }
      }
      if (prev >= 0 && times[i] - times[prev] >= 1000) {
        peak = Math.max(peak, (consumed[i] - consumed[prev]) * 1000.0 / (times[i] - times[prev]));
      }
      prev = i;
    }
    double seconds = (endMs - startMs) / 1000.0;
    double avg = seconds > 0 ? finalRows / seconds : 0;
    return new Figures(error, errorAt, peak, avg);
  }
}
