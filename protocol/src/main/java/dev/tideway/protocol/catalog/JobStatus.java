package dev.tideway.protocol.catalog;

/**
 * A streaming job's life. {@code CREATING → CREATED} when its backfill finished at a checkpoint
 * commit; {@code CREATING → CANCELLING} on {@code CANCEL JOBS}; dropped jobs are deleted, not kept
 * with a status. Fixed codes: never reuse or renumber one.
 */
public enum JobStatus {
  /** Accepted and persisted; actors may still be building or backfilling. */
  CREATING(1),
  /** Backfill done and committed; the job's objects are ready for queries. */
  CREATED(2),
  /** Being cancelled: actors are stopped, then the job and its objects are removed. */
  CANCELLING(3),
  /**
   * Isolated after repeated failures of its own actors (or of an upstream job's): no actor runs,
   * the relation keeps the last committed contents; {@link JobRecord#error()} says why.
   */
  PAUSED(4);

  private final byte code;

  JobStatus(int code) {
    this.code = (byte) code;
  }

  /** Whether the job's relation can be read: its backfill finished (it may have stopped since). */
  public boolean readable() {
    return this == CREATED || this == PAUSED;
  }

  public byte code() {
    return code;
  }

  public static JobStatus fromCode(int code) {
    for (JobStatus s : values()) {
      if (s.code == code) {
        return s;
      }
    }
    throw new IllegalArgumentException("unknown job status code " + code);
  }
}
