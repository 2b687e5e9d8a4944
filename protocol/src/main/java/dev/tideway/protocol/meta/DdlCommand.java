package dev.tideway.protocol.meta;

import dev.tideway.common.check.Checks;
import dev.tideway.common.plan.ColumnDesc;
import dev.tideway.common.plan.StreamPlanNode;
import dev.tideway.protocol.catalog.BackfillHistory;
import dev.tideway.protocol.catalog.CreateType;
import dev.tideway.protocol.catalog.ObjectKind;
import dev.tideway.protocol.catalog.VersionPointer;
import java.util.List;
import java.util.Map;

/** A request to change the catalog, as a frontend (or the barrier shell) sends it. */
public sealed interface DdlCommand {
  /** Reserve {@code count} ids for the tables a frontend is about to plan. */
  record ReserveIds(int count) implements DdlCommand {
    public ReserveIds {
      Checks.checkArgument(count >= 1 && count <= 10_000, "reserve 1..10000 ids, got %s", count);
    }
  }

  record CreateDatabase(String name) implements DdlCommand {}

  record CreateSchema(int databaseId, String name) implements DdlCommand {}

  /**
   * {@code CREATE TABLE | SOURCE | MATERIALIZED VIEW}: a streaming job.
   *
   * @param kind TABLE, SOURCE or MATERIALIZED_VIEW
   * @param schemaId the schema it goes into
   * @param name the relation's name
   * @param definition the SQL text
   * @param plan the planned operator tree; its table ids were reserved with {@link ReserveIds}
   * @param createType foreground or background
   * @param dependsOn relations the plan reads that its fragment graph does not name: the ids of the
   *     catalog-only sources ({@link CreateSource}) whose connector the plan embeds; they cannot be
   *     dropped while this job exists
   */
  record CreateStreamingJob(
      ObjectKind kind,
      int schemaId,
      String name,
      String definition,
      StreamPlanNode plan,
      CreateType createType,
      List<Integer> dependsOn,
      Map<String, String> properties)
      implements DdlCommand {
    public CreateStreamingJob {
      Checks.checkArgument(kind.streaming(), "%s is not created by a streaming job", kind);
      Checks.checkNotNull(plan, "plan of " + name);
      Checks.checkNotNull(createType, "create type of " + name);
      dependsOn = List.copyOf(dependsOn);
      properties = Map.copyOf(properties);
    }

    /** A job whose relation carries no extra properties. */
    public CreateStreamingJob(
        ObjectKind kind,
        int schemaId,
        String name,
        String definition,
        StreamPlanNode plan,
        CreateType createType,
        List<Integer> dependsOn) {
      this(kind, schemaId, name, definition, plan, createType, dependsOn, Map.of());
    }

    /** A job that reads no catalog-only source. */
    public CreateStreamingJob(
        ObjectKind kind,
        int schemaId,
        String name,
        String definition,
        StreamPlanNode plan,
        CreateType createType) {
      this(kind, schemaId, name, definition, plan, createType, List.of(), Map.of());
    }
  }

  /**
   * {@code CREATE SOURCE}: a catalog-only object, no streaming job and no actors. Each MV that
   * reads it embeds its connector in its own plan and names it in {@link
   * CreateStreamingJob#dependsOn}.
   *
   * @param columns the source's columns
   * @param pk primary key column indices (may be empty)
   * @param properties the connector options ({@code WITH (connector = 'datagen', ...)})
   */
  record CreateSource(
      int schemaId,
      String name,
      String definition,
      List<ColumnDesc> columns,
      List<Integer> pk,
      Map<String, String> properties)
      implements DdlCommand {
    public CreateSource {
      Checks.checkNotNull(name, "source name");
      columns = List.copyOf(columns);
      pk = List.copyOf(pk);
      properties = Map.copyOf(properties);
    }
  }

  /**
   * {@code CREATE USER name [WITH] [PASSWORD '…'] [SUPERUSER | NOSUPERUSER]}: {@code properties} as
   * {@link dev.tideway.protocol.catalog.ObjectKind#USER} keeps them (the frontend turns the
   * password into its SCRAM verifier before it leaves the session).
   */
  record CreateUser(String name, Map<String, String> properties) implements DdlCommand {
    public CreateUser {
      Checks.checkNotNull(name, "user name");
      properties = Map.copyOf(properties);
    }
  }

  /** {@code ALTER USER name [WITH] …}: the given properties replace the user's. */
  record AlterUser(String name, Map<String, String> properties) implements DdlCommand {
    public AlterUser {
      Checks.checkNotNull(name, "user name");
      properties = Map.copyOf(properties);
    }
  }

  /** {@code DROP TABLE | SOURCE | MATERIALIZED VIEW name}. */
  record Drop(ObjectKind kind, int schemaId, String name) implements DdlCommand {}

  /** {@code CANCEL JOBS id}: only a job still CREATING can be cancelled. */
  record CancelJob(int jobId) implements DdlCommand {}

  /**
   * {@code ALTER MATERIALIZED VIEW ... SET BACKFILL_RATE_LIMIT}: a creating job's snapshot rate
   * limit, in rows per second per backfill actor. Persisted in the job's fragment graph (its {@code
   * StreamScan}s), so rebuilt actors start with it; running ones get it through a {@code Throttle}
   * barrier ({@code MetaServer.setBackfillRateLimit} does both).
   *
   * @param rowsPerSecond {@code >= 0} ({@code 0} pauses the backfill), or {@link #UNLIMITED}
   */
  record SetBackfillRateLimit(int jobId, long rowsPerSecond) implements DdlCommand {
    /** No limit (the same value as {@code StreamScan.UNLIMITED} and {@code Throttle.UNLIMITED}). */
    public static final long UNLIMITED = -1;

    public SetBackfillRateLimit {
      Checks.checkArgument(
          rowsPerSecond >= 0 || rowsPerSecond == UNLIMITED,
          "job %s: backfill rate limit must be >= 0 or UNLIMITED (-1), got %s",
          jobId,
          rowsPerSecond);
    }
  }

  /**
   * The barrier shell could not start a new job (building its actors failed): remove it like a
   * cancel; foreground waiters fail with {@code reason}.
   */
  record FailJob(int jobId, String reason) implements DdlCommand {}

  /**
   * The barrier shell isolates a CREATED job whose own actors kept failing: the job, and every job
   * downstream of it, becomes {@code PAUSED} with {@code reason}; recoveries no longer build their
   * actors, and their relations keep the contents of the last committed epoch.
   */
  record PauseJob(int jobId, String reason) implements DdlCommand {}

  /**
   * Recovery: move every actor placed on a compute node that is no longer registered to a live node
   * (all actors of one lost node go to the same live node, so co-located pairs stay co-located and
   * vnode bitmaps are unchanged).
   */
  record RelocateActors() implements DdlCommand {}

  /**
   * The barrier shell is about to reset the nodes to {@code generation} from committed epoch {@code
   * baseEpoch}: log it first ({@code RecoveryLog}), so FLUSH can tell which acknowledged writes the
   * reset throws away.
   */
  record RecordRecovery(long generation, long baseEpoch) implements DdlCommand {}

  /** The barrier shell saw the job's backfill finish at a committed checkpoint. */
  record FinishJob(int jobId, byte[] progressSnapshot) implements DdlCommand {}

  /**
   * The barrier shell committed a checkpoint: persist the new storage version pointer, each
   * creating job's progress snapshot, and flip the finished jobs to CREATED, in one fenced write.
   */
  record CommitEpoch(
      VersionPointer pointer, Map<Integer, byte[]> progressByJob, List<Integer> finishedJobIds)
      implements DdlCommand {
    public CommitEpoch {
      Checks.checkNotNull(pointer, "version pointer");
      progressByJob = Map.copyOf(progressByJob);
      finishedJobIds = List.copyOf(finishedJobIds);
    }
  }

  /** The dashboard appends a finished backfill to the history ({@code BackfillHistory}). */
  record RecordBackfill(BackfillHistory.Entry entry) implements DdlCommand {
    public RecordBackfill {
      Checks.checkNotNull(entry, "history entry");
    }
  }

  /** The barrier shell persists the job's progress snapshot of a committed epoch. */
  record SaveProgress(int jobId, byte[] progressSnapshot) implements DdlCommand {}
}
