package dev.tideway.protocol.catalog;

import dev.tideway.common.check.Checks;
import java.util.ArrayList;
import java.util.List;

/**
 * The finished backfills at {@code catalog/backfill-history}, oldest first, at most {@link
 * #MAX_ENTRIES}: what the dashboard's history shows after the job's progress left the tracker. The
 * leader appends an entry (one fenced write) right after the job flipped to CREATED, so the history
 * survives a leader change; an entry lost between the flip and its write (the leader died in
 * between) is not recovered.
 *
 * @param entries oldest first
 */
public record BackfillHistory(List<Entry> entries) {
  public static final int FORMAT_VERSION = 1;
  public static final int MAX_ENTRIES = 100;
  static final int FIELD_ENTRY = 1;
  static final int E_JOB_ID = 1;
  static final int E_NAME = 2;
  static final int E_DEFINITION = 3;
  static final int E_STARTED_MS = 4;
  static final int E_FINISHED_MS = 5;
  static final int E_ROWS = 6;
  static final int E_AVG_RATE = 7;
  static final int E_PEAK_RATE = 8;
  static final int E_PROGRESS_ERROR = 9;
  static final int E_PROGRESS_ERROR_AT_MS = 10;
  static final int E_SAMPLES = 11;
  static final int E_TOTAL_EXACT = 12;

  public static final BackfillHistory EMPTY = new BackfillHistory(List.of());

  /**
   * One finished backfill.
   *
   * @param jobId the job (its id is never reused)
   * @param name the relation it created
   * @param definition the DDL text
   * @param startedAtMs when the job was accepted (wall clock)
   * @param finishedAtMs when it became CREATED (the physical time of the commit's epoch)
   * @param rows snapshot rows (and source offsets) consumed in all
   * @param avgRowsPerSecond rows over the whole duration
   * @param peakRowsPerSecond the highest rate between two progress samples at least a second apart
   * @param progressError the largest gap, over the samples, between the fraction shown then and the
   *     fraction measured afterwards (rows consumed then / rows consumed in all); NaN without
   *     samples
   * @param progressErrorAtMs when that gap was seen (0 without samples)
   * @param samples how many progress samples the figures rest on (the leader's that saw the end)
   * @param totalIsExact whether the denominator shown at the end was an exact live-row count
   */
  public record Entry(
      int jobId,
      String name,
      String definition,
      long startedAtMs,
      long finishedAtMs,
      long rows,
      double avgRowsPerSecond,
      double peakRowsPerSecond,
      double progressError,
      long progressErrorAtMs,
      int samples,
      boolean totalIsExact) {
    public Entry {
      Checks.checkNotNull(name, "name of job " + jobId);
      Checks.checkNotNull(definition, "definition of job " + jobId);
    }
  }

  public BackfillHistory {
    entries = List.copyOf(entries);
    Checks.checkArgument(
        entries.size() <= MAX_ENTRIES, "backfill history of %s entries", entries.size());
  }

  /**
   * This history with {@code e} appended (replacing an entry of the same job; the oldest may go).
   */
  public BackfillHistory append(Entry e) {
    List<Entry> next = new ArrayList<>(entries);
    next.removeIf(x -> x.jobId() == e.jobId());
    next.add(e);
    while (next.size() > MAX_ENTRIES) {
      next.remove(0);
    }
    return new BackfillHistory(next);
  }

  public byte[] encode() {
    TaggedWriter w = TaggedWriter.record(RecordKind.BACKFILL_HISTORY, FORMAT_VERSION);
    for (Entry e : entries) {
      w.putNested(
          FIELD_ENTRY,
          TaggedWriter.nested()
              .putInt(E_JOB_ID, e.jobId())
              .putString(E_NAME, e.name())
              .putString(E_DEFINITION, e.definition())
              .putLong(E_STARTED_MS, e.startedAtMs())
              .putLong(E_FINISHED_MS, e.finishedAtMs())
              .putLong(E_ROWS, e.rows())
              .putLong(E_AVG_RATE, Double.doubleToLongBits(e.avgRowsPerSecond()))
              .putLong(E_PEAK_RATE, Double.doubleToLongBits(e.peakRowsPerSecond()))
              .putLong(E_PROGRESS_ERROR, Double.doubleToLongBits(e.progressError()))
              .putLong(E_PROGRESS_ERROR_AT_MS, e.progressErrorAtMs())
              .putInt(E_SAMPLES, e.samples())
              .putBoolean(E_TOTAL_EXACT, e.totalIsExact()));
    }
    return w.toBytes();
  }

  public static BackfillHistory decode(byte[] data) {
    TaggedReader r = TaggedReader.record(data, RecordKind.BACKFILL_HISTORY, FORMAT_VERSION);
    List<Entry> entries = new ArrayList<>();
    for (TaggedReader e : r.nestedAll(FIELD_ENTRY)) {
      entries.add(
          new Entry(
              e.requireInt(E_JOB_ID),
              e.getString(E_NAME, ""),
              e.getString(E_DEFINITION, ""),
              e.getLong(E_STARTED_MS, 0),
              e.getLong(E_FINISHED_MS, 0),
              e.getLong(E_ROWS, 0),
              Double.longBitsToDouble(e.getLong(E_AVG_RATE, Double.doubleToLongBits(0))),
              Double.longBitsToDouble(e.getLong(E_PEAK_RATE, Double.doubleToLongBits(0))),
              Double.longBitsToDouble(
                  e.getLong(E_PROGRESS_ERROR, Double.doubleToLongBits(Double.NaN))),
              e.getLong(E_PROGRESS_ERROR_AT_MS, 0),
              e.getInt(E_SAMPLES, 0),
              e.getBoolean(E_TOTAL_EXACT, false)));
    }
    return new BackfillHistory(entries);
  }
}
