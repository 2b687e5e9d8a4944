package dev.tideway.protocol.compute;

import dev.tideway.barrier.control.InjectBarrier;
import dev.tideway.common.row.Row;
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
   * Write rows into table {@code tableId} through its DML actors on this node: every row goes to
   * the actor owning its vnode (by the table's distribution key; inserts whose hidden {@code
   * _row_id} is NULL go to any of them and get an id there). Answered with {@link
   * ComputeEvent.DmlWritten} once the rows are enqueued: they belong to the epoch of the next
   * barrier injected after the answer and are visible once that epoch's checkpoint commits. All or
   * nothing: {@link ComputeEvent.CommandFailed} when the table has no DML actor here, a row does
   * not fit the table, a row's vnode is owned by another node (route with {@code DmlRouter.split}),
   * or an actor's channel is full (retry).
   *
   * @param actorId the one DML actor all rows go to ({@code ANY_ACTOR}: any of this node's); a
   *     writer that may resend a discarded write names the actor, so the write is one batch, taken
   *     or discarded whole
   * @param deletes full rows to delete (by primary key), applied before {@code inserts}
   * @param inserts full rows to insert
   */
  record WriteDml(
      long requestId,
      int tableId,
      int actorId,
      List<Row> deletes,
      List<Row> inserts,
      ActorRef<ComputeEvent> replyTo)
      implements ComputeRequest {
    /** The {@code actorId} of a write that any of the node's DML actors of the table may take. */
    public static final int ANY_ACTOR = -1;

    public WriteDml {
      deletes = List.copyOf(deletes);
      inserts = List.copyOf(inserts);
    }

    /** A write to whichever of the node's DML actors own the rows. */
    public WriteDml(
        long requestId,
        int tableId,
        List<Row> deletes,
        List<Row> inserts,
        ActorRef<ComputeEvent> replyTo) {
      this(requestId, tableId, ANY_ACTOR, deletes, inserts, replyTo);
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
}
