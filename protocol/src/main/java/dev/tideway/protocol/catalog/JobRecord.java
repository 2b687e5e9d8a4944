package dev.tideway.protocol.catalog;

import dev.tideway.common.check.Checks;
import java.util.List;

/**
 * A streaming job (create table / source / MV), persisted at {@code jobs/<job-id>} from the moment
 * it is accepted, so {@code SHOW JOBS} sees it at once and it survives restarts and failover.
 *
 * @param jobId the job id (the id of the object it creates)
 * @param definition the DDL text
 * @param status where it stands
 * @param createType foreground or background
 * @param createdAtMs when it was accepted (wall clock)
 * @param objectIds the catalog objects it owns (its relation and internal tables)
 * @param progressSnapshot the progress tracker's last committed snapshot, opaque to this record
 *     (written by the barrier shell at each commit; empty before the first); restored on failover
 *     so progress never drops to zero
 * @param error why the job is {@link JobStatus#PAUSED}; empty otherwise
 */
public record JobRecord(
    int jobId,
    String definition,
    JobStatus status,
    CreateType createType,
    long createdAtMs,
    List<Integer> objectIds,
    byte[] progressSnapshot,
    String error) {
  public static final int FORMAT_VERSION = 1;
  static final int FIELD_JOB_ID = 1;
  static final int FIELD_DEFINITION = 2;
  static final int FIELD_STATUS = 3;
  static final int FIELD_CREATE_TYPE = 4;
  static final int FIELD_CREATED_AT_MS = 5;
  static final int FIELD_OBJECT_ID = 6;
  static final int FIELD_PROGRESS = 7;
  static final int FIELD_ERROR = 8;

  public JobRecord {
    Checks.checkArgument(jobId > 0, "job id must be > 0, got %s", jobId);
    Checks.checkNotNull(definition, "definition of job " + jobId);
    Checks.checkNotNull(status, "status of job " + jobId);
    Checks.checkNotNull(createType, "create type of job " + jobId);
    objectIds = List.copyOf(objectIds);
    progressSnapshot = progressSnapshot.clone();
    error = error == null ? "" : error;
  }

  /** A job without an error. */
  public JobRecord(
      int jobId,
      String definition,
      JobStatus status,
      CreateType createType,
      long createdAtMs,
      List<Integer> objectIds,
      byte[] progressSnapshot) {
    this(jobId, definition, status, createType, createdAtMs, objectIds, progressSnapshot, "");
  }

  @Override
  public byte[] progressSnapshot() {
    return progressSnapshot.clone();
  }

  public JobRecord withStatus(JobStatus s) {
    return new JobRecord(
        jobId, definition, s, createType, createdAtMs, objectIds, progressSnapshot, error);
  }

  public JobRecord withProgress(byte[] snapshot) {
    return new JobRecord(
        jobId, definition, status, createType, createdAtMs, objectIds, snapshot, error);
  }

  /** This job {@link JobStatus#PAUSED} because of {@code why}. */
  public JobRecord paused(String why) {
    return new JobRecord(
        jobId,
        definition,
        JobStatus.PAUSED,
        createType,
        createdAtMs,
        objectIds,
        progressSnapshot,
        why);
  }

  public byte[] encode() {
    TaggedWriter w =
        TaggedWriter.record(RecordKind.JOB, FORMAT_VERSION)
            .putInt(FIELD_JOB_ID, jobId)
            .putString(FIELD_DEFINITION, definition)
            .putByte(FIELD_STATUS, status.code())
            .putByte(FIELD_CREATE_TYPE, createType.code())
            .putLong(FIELD_CREATED_AT_MS, createdAtMs)
            .putBytes(FIELD_PROGRESS, progressSnapshot);
    if (!error.isEmpty()) {
      w.putString(FIELD_ERROR, error);
    }
    for (int id : objectIds) {
      w.putInt(FIELD_OBJECT_ID, id);
    }
    return w.toBytes();
  }

  public static JobRecord decode(byte[] data) {
    TaggedReader r = TaggedReader.record(data, RecordKind.JOB, FORMAT_VERSION);
    return new JobRecord(
        r.requireInt(FIELD_JOB_ID),
        r.getString(FIELD_DEFINITION, ""),
        JobStatus.fromCode(r.requireByte(FIELD_STATUS)),
        CreateType.fromCode(r.requireByte(FIELD_CREATE_TYPE)),
        r.getLong(FIELD_CREATED_AT_MS, 0),
        r.longs(FIELD_OBJECT_ID).stream().map(Math::toIntExact).toList(),
        r.has(FIELD_PROGRESS) ? r.bytes(FIELD_PROGRESS) : new byte[0],
        r.getString(FIELD_ERROR, ""));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof JobRecord j
        && j.jobId == jobId
        && j.definition.equals(definition)
        && j.status == status
        && j.createType == createType
        && j.createdAtMs == createdAtMs
        && j.objectIds.equals(objectIds)
        && java.util.Arrays.equals(j.progressSnapshot, progressSnapshot)
        && j.error.equals(error);
  }

  @Override
  public int hashCode() {
    return jobId;
  }

  @Override
  public String toString() {
    return "JobRecord["
        + jobId
        + " "
        + status
        + " "
        + createType
        + " '"
        + definition
        + "'"
        + (error.isEmpty() ? "" : " error=" + error)
        + "]";
  }
}
