package dev.tideway.meta.progress;

import dev.tideway.barrier.progress.BackfillActor;
import dev.tideway.barrier.progress.BackfillMode;
import dev.tideway.barrier.progress.BackfillState;
import dev.tideway.barrier.progress.JobSpec;
import dev.tideway.barrier.progress.ProgressBatch;
import dev.tideway.barrier.progress.TrackerSnapshot;
import dev.tideway.barrier.progress.TrackerSnapshot.JobSnapshot;
import dev.tideway.barrier.progress.UpstreamType;
import dev.tideway.protocol.catalog.RecordKind;
import dev.tideway.protocol.catalog.TaggedReader;
import dev.tideway.protocol.catalog.TaggedWriter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The persisted form of one job's tracker state ({@link JobSnapshot}) plus the tracker-wide epoch
 * and mean barrier interval, in the tagged format (record kind {@code PROGRESS_SNAPSHOT}). Enums
 * use the fixed codes below, not ordinals. States are stored per actor in the spec's actor order.
 */
public final class ProgressSnapshotCodec {
  public static final int FORMAT_VERSION = 1;
  static final int FIELD_EPOCH = 1;
  static final int FIELD_MEAN_INTERVAL_MS = 2;
  static final int FIELD_JOB_ID = 3;
  static final int FIELD_MODE = 4;
  static final int FIELD_ACTOR = 5;
  static final int FIELD_SCAN = 6;
  static final int FIELD_FROZEN_KEYS = 7;
  static final int FIELD_FROZEN_LIVE_ROWS = 8;
  static final int FIELD_RATE_LIMIT = 9;
  static final int FIELD_DISPLAY_RATIO = 10;
  static final int FIELD_ROWS_PER_SECOND = 11;
  static final int FIELD_LAST_PHYSICAL_MS = 12;
  static final int FIELD_LAST_ROWS = 13;
  static final int FIELD_LAST_CHANGE_MS = 14;
  static final int A_ID = 1;
  static final int A_UPSTREAM = 2;
  static final int A_CODE = 3;
  static final int A_A = 4;
  static final int A_ROWS = 5;
  static final int PAIR_KEY = 1;
  static final int PAIR_VALUE = 2;

  private ProgressSnapshotCodec() {}

  /** One job's state in a decoded snapshot, with the tracker-wide fields it was saved with. */
  public record Saved(long epoch, long meanBarrierIntervalMs, JobSnapshot job) {}

  public static byte[] encode(long epoch, long meanIntervalMs, JobSnapshot j) {
    TaggedWriter w =
        TaggedWriter.record(RecordKind.PROGRESS_SNAPSHOT, FORMAT_VERSION)
            .putLong(FIELD_EPOCH, epoch)
            .putLong(FIELD_MEAN_INTERVAL_MS, meanIntervalMs)
            .putLong(FIELD_JOB_ID, j.spec().jobId())
            .putByte(FIELD_MODE, (byte) (j.spec().mode() == BackfillMode.SNAPSHOT ? 2 : 1))
            .putLong(FIELD_FROZEN_KEYS, j.frozenKeyCount())
            .putLong(FIELD_FROZEN_LIVE_ROWS, j.frozenLiveRows())
            .putLong(FIELD_DISPLAY_RATIO, Double.doubleToLongBits(j.displayRatio()))
            .putLong(FIELD_ROWS_PER_SECOND, Double.doubleToLongBits(j.rowsPerSecond()))
            .putLong(FIELD_LAST_PHYSICAL_MS, j.lastPhysicalMs())
            .putLong(FIELD_LAST_ROWS, j.lastRows())
            .putLong(FIELD_LAST_CHANGE_MS, j.lastChangeMs());
    List<BackfillActor> actors = j.spec().actors();
    for (int i = 0; i < actors.size(); i++) {
      BackfillState s = j.states().get(i);
      w.putNested(
          FIELD_ACTOR,
          TaggedWriter.nested()
              .putInt(A_ID, actors.get(i).actorId())
              .putByte(A_UPSTREAM, (byte) (actors.get(i).upstream() == UpstreamType.SOURCE ? 2 : 1))
              .putByte(A_CODE, s.code())
              .putLong(A_A, s.a())
              .putLong(A_ROWS, s.consumedRows()));
    }
    // sorted, so the same snapshot always encodes to the same bytes
    new TreeMap<>(j.spec().scansByTable()).forEach((t, n) -> w.putNested(FIELD_SCAN, pair(t, n)));
    new TreeMap<>(j.rateLimits()).forEach((a, r) -> w.putNested(FIELD_RATE_LIMIT, pair(a, r)));
    return w.toBytes();
  }

  private static TaggedWriter pair(long k, long v) {
    return TaggedWriter.nested().putLong(PAIR_KEY, k).putLong(PAIR_VALUE, v);
  }

  public static Saved decode(byte[] data) {
    TaggedReader r = TaggedReader.record(data, RecordKind.PROGRESS_SNAPSHOT, FORMAT_VERSION);
    List<BackfillActor> actors = new ArrayList<>();
    List<BackfillState> states = new ArrayList<>();
    for (TaggedReader a : r.nestedAll(FIELD_ACTOR)) {
      int id = a.requireInt(A_ID);
      actors.add(
          new BackfillActor(
              id, a.requireByte(A_UPSTREAM) == 2 ? UpstreamType.SOURCE : UpstreamType.TABLE));
      states.add(state(id, a.requireByte(A_CODE), a.requireLong(A_A), a.requireLong(A_ROWS)));
    }
    Map<Integer, Integer> scans = new HashMap<>();
    r.nestedAll(FIELD_SCAN)
        .forEach(p -> scans.put(p.requireInt(PAIR_KEY), p.requireInt(PAIR_VALUE)));
    Map<Integer, Long> limits = new HashMap<>();
    r.nestedAll(FIELD_RATE_LIMIT)
        .forEach(p -> limits.put(p.requireInt(PAIR_KEY), p.requireLong(PAIR_VALUE)));
    BackfillMode mode =
        r.requireByte(FIELD_MODE) == 2 ? BackfillMode.SNAPSHOT : BackfillMode.ARRANGEMENT;
    JobSnapshot job =
        new JobSnapshot(
            new JobSpec(r.requireLong(FIELD_JOB_ID), mode, actors, scans),
            r.getLong(FIELD_FROZEN_KEYS, 0),
            r.getLong(FIELD_FROZEN_LIVE_ROWS, 0),
            states,
            limits,
            Double.longBitsToDouble(r.getLong(FIELD_DISPLAY_RATIO, 0)),
            Double.longBitsToDouble(r.getLong(FIELD_ROWS_PER_SECOND, 0)),
            r.getLong(FIELD_LAST_PHYSICAL_MS, 0),
            r.getLong(FIELD_LAST_ROWS, 0),
            r.getLong(FIELD_LAST_CHANGE_MS, 0));
    return new Saved(r.getLong(FIELD_EPOCH, 0), r.getLong(FIELD_MEAN_INTERVAL_MS, -1), job);
  }

  /** Decodes a state through the barrier module's own decoder (reached via a one-report batch). */
  private static BackfillState state(int actorId, byte code, long a, long rows) {
    if (code == BackfillState.INIT) {
      return new BackfillState.Init();
    }
    ProgressBatch b = new ProgressBatch(1);
    b.add(actorId, code, a, rows);
    return b.state(0);
  }

  /**
   * The tracker-wide snapshot of several saved jobs (for {@code
   * CreateMviewProgressTracker.restore}).
   */
  public static TrackerSnapshot combine(List<Saved> saved) {
    long epoch = 0;
    long mean = -1;
    List<JobSnapshot> jobs = new ArrayList<>();
    for (Saved s : saved) {
      if (s.epoch() >= epoch) {
        epoch = s.epoch();
        mean = s.meanBarrierIntervalMs();
      }
      jobs.add(s.job());
    }
    return new TrackerSnapshot(epoch, mean, jobs);
  }
}
