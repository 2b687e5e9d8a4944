package dev.tideway.protocol.compute;

import dev.tideway.barrier.control.BarrierCompleted;
import dev.tideway.barrier.control.NodeFailure;
import dev.tideway.common.serde.TidewayMessage;
import dev.tideway.storage.api.CompactionOutcome;
import java.util.List;

/** What a compute node tells the meta leader. */
public sealed interface ComputeEvent extends TidewayMessage {
  /** The node that says it. */
  int nodeId();

  /** Every actor of the node collected the epoch (and for a checkpoint, synced). */
  record Completed(BarrierCompleted<Object> completed) implements ComputeEvent {
    @Override
    public int nodeId() {
      return completed.nodeId();
    }
  }

  /** An actor failed; these epochs will not complete here. */
  record Failed(NodeFailure failure) implements ComputeEvent {
    @Override
    public int nodeId() {
      return failure.nodeId();
    }
  }

  /** A command with this request id succeeded. */
  record Ack(int nodeId, long requestId) implements ComputeEvent {}

  /**
   * A {@code WriteDml}'s rows joined {@code epoch} of {@code generation} on this node (the highest
   * epoch, when its actors took them on both sides of a barrier): they are durable once a
   * checkpoint at or above {@code epoch} commits in that generation, and lost if a recovery starts
   * a later generation before one does.
   */
  record DmlWritten(int nodeId, long requestId, long rows, long generation, long epoch)
      implements ComputeEvent {}

  /** A {@code Compact} with this request id ran; meta commits {@code outcome}. */
  record Compacted(int nodeId, long requestId, CompactionOutcome outcome) implements ComputeEvent {}

  /** A {@code GetExpressionErrors}'s answer: the node's counts since it started. */
  record ExpressionErrors(int nodeId, long requestId, List<ExpressionErrorCount> counts)
      implements ComputeEvent {
    public ExpressionErrors {
      counts = List.copyOf(counts);
    }
  }

  /** A command failed; {@code reason} names the actor and the cause. */
  record CommandFailed(int nodeId, long requestId, String reason) implements ComputeEvent {}
}
