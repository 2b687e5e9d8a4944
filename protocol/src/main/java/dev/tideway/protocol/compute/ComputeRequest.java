package dev.tideway.protocol.compute;

import dev.tideway.barrier.control.InjectBarrier;
import dev.tideway.common.check.Checks;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.serde.TidewayMessage;
import dev.tideway.storage.api.CompactionJob;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.pekko.actor.typed.ActorRef;

/**
 * What a compute node's control actor ({@code /user/compute}) is asked to do over the wire, by the
 * meta leader (build, inject, drop, reset, compact) and by frontends (write DML rows). Each request
 * is answered on its {@code replyTo} with a {@link ComputeEvent}; a request that carries a {@code
 * requestId} is answered under it.
 */
public sealed interface ComputeRequest extends ControlMessage, TidewayMessage {
  /** Where the answer goes. */
  ActorRef<ComputeEvent> replyTo();

  /**
   * Build (but do not start) these actors; they start on the barrier whose {@code Add} names them.
   * Answered with {@link ComputeEvent.Ack} or {@link ComputeEvent.CommandFailed}.
   *
   * @param actorNodes the Pekko address of the node of every actor these actors exchange with
   *     (including the downstream actors of {@code newOutputs})
   * @param newOutputs for actors already running on this node (by id), dispatchers to add towards
   *     new downstream actors (of this or another node); each is attached by the upstream actor
   *     just before it dispatches the {@code Add} barrier naming those downstream actors, so their
   *     first message is that barrier. Empty when the command only builds actors.
   */
  record BuildActors(
      long requestId,
      List<ActorSpec> actors,
      Map<Integer, String> actorNodes,
      Map<Integer, List<DispatchSpec>> newOutputs,
      ActorRef<ComputeEvent> replyTo)
      implements ComputeRequest {
    public BuildActors {
      actors = List.copyOf(actors);
      actorNodes = Map.copyOf(actorNodes);
      Map<Integer, List<DispatchSpec>> outs = new java.util.HashMap<>();
      newOutputs.forEach((up, ds) -> outs.put(up, List.copyOf(ds)));
      newOutputs = Map.copyOf(outs);
    }

    /** Builds actors without adding outputs to running ones. */
    public BuildActors(
        long requestId,
        List<ActorSpec> actors,
        Map<Integer, String> actorNodes,
        ActorRef<ComputeEvent> replyTo) {
      this(requestId, actors, actorNodes, Map.of(), replyTo);
    }
  }

  /**
   * Write one chunk of a statement's rows into table {@code tableId} through its DML actor {@code
   * actorId} on this node. The chunk holds full rows (hidden columns included) with their ops:
   * {@code +} inserts, {@code -} deletes by primary key, an update as an adjacent {@code U-}/{@code
   * U+} pair; every row must hash to a vnode the actor owns (route with {@link DmlRouter}; an
   * insert whose hidden {@code _row_id} is NULL may go to any actor, which gives it an id of its
   * own).
   *
   * <p>Answered with {@link ComputeEvent.DmlWritten} once the actor took the chunk: its rows belong
   * to the epoch named there and are visible once that epoch's checkpoint commits. Taken or
   * discarded whole: {@link ComputeEvent.CommandFailed} when the table has no such DML actor here
   * (it is being built or rebuilt: send it again) or the actor went away before taking it ("write
   * discarded": in no epoch, send it again), or when the chunk does not fit the table (not
   * retryable).
   *
   * <p>Sent to the node's {@link #DML_ACTOR} on Pekko's large-message stream, so a stream of chunks
   * never delays the barriers and commands of {@code /user/compute}; a writer keeps a bounded
   * number of chunks unanswered (its window), which bounds what a node holds for it.
   */
  record WriteDml(
      long requestId, int tableId, int actorId, StreamChunk chunk, ActorRef<ComputeEvent> replyTo)
      implements ComputeRequest {
    /** The node's actor (under {@code /user}) that takes {@code WriteDml}s. */
    public static final String DML_ACTOR = "compute-dml";

    public WriteDml {
      Checks.checkArgument(actorId >= 0, "table %s: write to actor %s", tableId, actorId);
      Checks.checkNotNull(chunk, "chunk");
    }
  }

  /**
   * Run a compaction task the meta leader picked: rewrite its input SSTs into new ones on the state
   * store's compactor pool; answered with {@link ComputeEvent.Compacted} (the outcome to commit) or
   * {@link ComputeEvent.CommandFailed}. The node changes no version: meta commits the outcome.
   */
  record Compact(long requestId, CompactionJob job, ActorRef<ComputeEvent> replyTo)
      implements ComputeRequest {}

  /** Inject a barrier; completion comes as {@link ComputeEvent.Completed} on {@code replyTo}. */
  record Inject(InjectBarrier inject, ActorRef<ComputeEvent> replyTo) implements ComputeRequest {}

  /** Stop these actors now, without a barrier (after a failed build, or cancel). */
  record DropActors(long requestId, Set<Integer> actors, ActorRef<ComputeEvent> replyTo)
      implements ComputeRequest {
    public DropActors {
      actors = Set.copyOf(actors);
    }
  }

  /**
   * Recovery: drop every actor and channel and forget in-flight epochs; the next barrier is the
   * INITIAL barrier of {@code generation}. The node answers once its state store reads at {@code
   * committedEpoch} (the epoch the cluster resets to): the rebuilt actors read their state there.
   */
  record ResetForRecovery(
      long requestId, long generation, long committedEpoch, ActorRef<ComputeEvent> replyTo)
      implements ComputeRequest {}

  /** Answer with the node's expression error counts ({@link ComputeEvent.ExpressionErrors}). */
  record GetExpressionErrors(long requestId, ActorRef<ComputeEvent> replyTo)
      implements ComputeRequest {}
}
