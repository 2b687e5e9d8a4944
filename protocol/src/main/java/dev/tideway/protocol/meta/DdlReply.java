package dev.tideway.protocol.meta;

import dev.tideway.protocol.catalog.FragmentGraph;
import dev.tideway.protocol.catalog.JobRecord;
import java.util.List;
import java.util.Map;

/** The outcome of a {@link DdlCommand}; expected failures are {@link Rejected}, not exceptions. */
public sealed interface DdlReply {
  /**
   * The result a frontend is told: the first reserved id, the created object's or the accepted
   * job's id, else 0.
   *
   * @throws DdlRejectedException for a rejection
   */
  static int valueOf(DdlReply reply) {
    if (reply instanceof IdsReserved ids) {
      return ids.from();
    } else if (reply instanceof ObjectCreated c) {
      return c.id();
    } else if (reply instanceof JobAccepted j) {
      return j.job().jobId();
    } else if (reply instanceof Rejected rej) {
      throw new DdlRejectedException(rej.reason(), rej.message());
    }
    return 0;
  }

  record IdsReserved(int from, int toExclusive) implements DdlReply {}

  record ObjectCreated(int id) implements DdlReply {}

  /** The job is persisted with status CREATING (visible from now on) and its actors placed. */
  record JobAccepted(JobRecord job, FragmentGraph graph) implements DdlReply {}

  /** A checkpoint's metadata is persisted; {@code createdJobIds} became CREATED with it. */
  record EpochCommitted(long maxCommittedEpoch, List<Integer> createdJobIds) implements DdlReply {
    public EpochCommitted {
      createdJobIds = List.copyOf(createdJobIds);
    }
  }

  /** The job changed (finished or saved progress). */
  record JobUpdated(JobRecord job) implements DdlReply {}

  /**
   * The job and its objects are gone from the catalog; the caller stops these actors (Stop
   * mutation) and drops these state tables from storage.
   */
  record JobRemoved(int jobId, List<Integer> actorIds, List<Integer> tableIds) implements DdlReply {
    public JobRemoved {
      actorIds = List.copyOf(actorIds);
      tableIds = List.copyOf(tableIds);
    }
  }

  /**
   * A creating job's new backfill rate limit is persisted in its fragment graph.
   *
   * @param rateByActor the Throttle the barrier loop sends: each backfill actor and its rate
   */
  record BackfillRateLimitSet(int jobId, long rowsPerSecond, Map<Integer, Long> rateByActor)
      implements DdlReply {
    public BackfillRateLimitSet {
      rateByActor = Map.copyOf(rateByActor);
    }
  }

  /**
   * A persisted backfill rate limit reached the job's actors, or will (see {@link #applied}).
   *
   * @param epoch the epoch of the barrier that carried the {@code Throttle} (CHECKPOINT), the
   *     committed epoch the recovery restarted from (RECOVERY), or 0 (PERSISTED)
   */
  record BackfillThrottled(int jobId, long rowsPerSecond, Applied applied, long epoch)
      implements DdlReply {
    /** How the running actors got the new rate. */
    public enum Applied {
      /** The checkpoint carrying the {@code Throttle} mutation committed. */
      CHECKPOINT,
      /**
       * A recovery dropped that barrier and rebuilt every actor from the persisted graph, which
       * holds the new rate.
       */
      RECOVERY,
      /**
       * Only persisted: no barrier loop runs in this process now (not leading, or deposed before
       * the barrier committed); the actors take the rate when they are next built (the new leader's
       * recovery).
       */
      PERSISTED
    }
  }

  /** The recovery log holds {@code generation}. */
  record RecoveryRecorded(long generation) implements DdlReply {}

  /** The backfill history holds job {@code jobId}'s entry. */
  record BackfillRecorded(int jobId) implements DdlReply {}

  /** Actors of lost nodes moved: lost node address → the live node that took its actors. */
  record ActorsRelocated(Map<String, String> moves) implements DdlReply {
    public ActorsRelocated {
      moves = Map.copyOf(moves);
    }
  }

  /** Refused; nothing was persisted. */
  record Rejected(Reason reason, String message) implements DdlReply {
    /** Why a DDL was refused (maps to a SQLSTATE at the frontend). */
    public enum Reason {
      ALREADY_EXISTS,
      NOT_FOUND,
      HAS_DEPENDENTS,
      NO_COMPUTE_NODES,
      INVALID,
      WRONG_STATUS
    }
  }
}
