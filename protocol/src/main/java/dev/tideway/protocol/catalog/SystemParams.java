package dev.tideway.protocol.catalog;

import dev.tideway.common.check.Checks;

/**
 * Cluster-wide system parameters, persisted at {@code params}.
 *
 * @param barrierIntervalMs how often the leader injects a barrier; default 1000, min 10 (tests)
 * @param checkpointFrequency every n-th barrier is a checkpoint; default 1
 * @param maxInflightBarriers at most this many injected, uncommitted barriers; default 4
 * @param parallelism actors per hash-distributed fragment; 0 = the total cores of the compute nodes
 *     at scheduling time (the default)
 */
public record SystemParams(
    long barrierIntervalMs, int checkpointFrequency, int maxInflightBarriers, int parallelism) {
  public static final int FORMAT_VERSION = 1;
  public static final long MIN_BARRIER_INTERVAL_MS = 10;
  public static final SystemParams DEFAULTS = new SystemParams(1000, 1, 4, 0);

  public static final int FIELD_BARRIER_INTERVAL_MS = 1;
  static final int FIELD_CHECKPOINT_FREQUENCY = 2;
  static final int FIELD_MAX_INFLIGHT_BARRIERS = 3;
  static final int FIELD_PARALLELISM = 4;

  public SystemParams {
    Checks.checkArgument(
        barrierIntervalMs >= MIN_BARRIER_INTERVAL_MS,
        "barrier_interval_ms must be >= %s, got %s",
        MIN_BARRIER_INTERVAL_MS,
        barrierIntervalMs);
    Checks.checkArgument(
        checkpointFrequency >= 1, "checkpoint_frequency must be >= 1, got %s", checkpointFrequency);
    Checks.checkArgument(
        maxInflightBarriers >= 1,
        "max_inflight_barriers must be >= 1, got %s",
        maxInflightBarriers);
    Checks.checkArgument(
        parallelism >= 0, "parallelism must be >= 0 (0 = total cores), got %s", parallelism);
  }

  public byte[] encode() {
    return TaggedWriter.record(RecordKind.SYSTEM_PARAMS, FORMAT_VERSION)
        .putLong(FIELD_BARRIER_INTERVAL_MS, barrierIntervalMs)
        .putInt(FIELD_CHECKPOINT_FREQUENCY, checkpointFrequency)
        .putInt(FIELD_MAX_INFLIGHT_BARRIERS, maxInflightBarriers)
        .putInt(FIELD_PARALLELISM, parallelism)
        .toBytes();
  }

  /** Decodes; a parameter absent from an older record takes its default. */
  public static SystemParams decode(byte[] data) {
    TaggedReader r = TaggedReader.record(data, RecordKind.SYSTEM_PARAMS, FORMAT_VERSION);
    return new SystemParams(
        r.getLong(FIELD_BARRIER_INTERVAL_MS, DEFAULTS.barrierIntervalMs),
        r.getInt(FIELD_CHECKPOINT_FREQUENCY, DEFAULTS.checkpointFrequency),
        r.getInt(FIELD_MAX_INFLIGHT_BARRIERS, DEFAULTS.maxInflightBarriers),
        r.getInt(FIELD_PARALLELISM, DEFAULTS.parallelism));
  }
}
