package dev.tideway.compute.node;

import dev.tideway.barrier.control.InjectBarrier;
import dev.tideway.barrier.control.SyncResult;
import dev.tideway.barrier.epoch.EpochPair;
import dev.tideway.compute.exchange.WireMessage;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.pekko.actor.typed.ActorRef;

/**
 * What the node's control actor ({@link ComputeControl}) handles: meta's commands (wire messages,
 * each answered on {@code replyTo}) and the node's own events from actor threads and the state
 * store (local only, never serialized).
 */
public sealed interface ComputeCommand {
  /** A command from the meta leader. */
  sealed interface FromMeta extends ComputeCommand, WireMessage {
    ActorRef<ComputeEvent> replyTo();
  }

  /**
   * Build (but do not start) these actors; they start on the barrier whose {@code Add} names them.
   * Answered with {@link ComputeEvent.Ack} or {@link ComputeEvent.CommandFailed}.
   *
   * @param actorNodes the Pekko address of the node of every actor these actors exchange with
   */
  record BuildActors(
      long requestId,
      List<ActorSpec> actors,
      Map<Integer, String> actorNodes,
      ActorRef<ComputeEvent> replyTo)
      implements FromMeta {
    public BuildActors {
      actors = List.copyOf(actors);
      actorNodes = Map.copyOf(actorNodes);
    }
  }

  /** Inject a barrier; completion comes as {@link ComputeEvent.Completed} on {@code replyTo}. */
  record Inject(InjectBarrier inject, ActorRef<ComputeEvent> replyTo) implements FromMeta {}

  /** Stop these actors now, without a barrier (after a failed build, or cancel). */
  record DropActors(long requestId, Set<Integer> actors, ActorRef<ComputeEvent> replyTo)
      implements FromMeta {
    public DropActors {
      actors = Set.copyOf(actors);
    }
  }

  /**
   * Recovery: drop every actor and channel and forget in-flight epochs; the next barrier is the
   * INITIAL barrier of {@code generation}.
   */
  record ResetForRecovery(long requestId, long generation, ActorRef<ComputeEvent> replyTo)
      implements FromMeta {}

  /** An actor collected a barrier (from its thread). */
  record ActorCollected(int actorId, EpochPair epoch) implements ComputeCommand {}

  /** A backfill executor reported progress for {@code epoch} (before yielding its barrier). */
  record ProgressReported(EpochPair epoch, int actorId, byte code, long a, long rows)
      implements ComputeCommand {}

  /** An actor ended (stop barrier or end of stream). */
  record ActorExited(int actorId, boolean stopped) implements ComputeCommand {}

  /** An actor's chain threw. */
  record ActorFailed(int actorId, String reason) implements ComputeCommand {}

  /** The cluster member at {@code address} left or became unreachable. */
  record PeerLost(String address, String why) implements ComputeCommand {}

  /** A checkpoint sync failed; the node fails its in-flight epochs. */
  record SyncFailed(long curr, long generation, String reason) implements ComputeCommand {}

  /** A checkpoint sync finished. */
  record SyncFinished(long curr, long generation, SyncResult<Object> result)
      implements ComputeCommand {}
}
