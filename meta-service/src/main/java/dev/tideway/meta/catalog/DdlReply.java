package dev.tideway.meta.catalog;

import dev.tideway.meta.metadata.FragmentGraph;
import dev.tideway.meta.metadata.JobRecord;
import java.util.List;
import java.util.Map;

/** The outcome of a {@link DdlCommand}; expected failures are {@link Rejected}, not exceptions. */
public sealed interface DdlReply {
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
