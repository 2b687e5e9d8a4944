package dev.tideway.compute.node;

import dev.tideway.barrier.control.SyncResult;
import dev.tideway.barrier.epoch.EpochPair;
import dev.tideway.protocol.compute.ComputeEvent;
import dev.tideway.protocol.compute.ControlMessage;
import dev.tideway.storage.api.CompactionOutcome;
import org.apache.pekko.actor.typed.ActorRef;

/**
 * The node's own events for its control actor ({@link ComputeControl}): reports from actor threads
 * and the state store, local only and never serialized (meta's and frontends' requests are {@link
 * dev.tideway.protocol.compute.ComputeRequest}s).
 */
sealed interface NodeEvent extends ControlMessage {
  /** An actor collected a barrier (from its thread). */
  record ActorCollected(int actorId, EpochPair epoch) implements NodeEvent {}

  /** A backfill executor reported progress for {@code epoch} (before yielding its barrier). */
  record ProgressReported(EpochPair epoch, int actorId, byte code, long a, long rows)
      implements NodeEvent {}

  /** An actor ended (stop barrier or end of stream). */
  record ActorExited(int actorId, boolean stopped) implements NodeEvent {}

  /** An actor's chain threw. */
  record ActorFailed(int actorId, String reason) implements NodeEvent {}

  /** The cluster member at {@code address} left or became unreachable. */
  record PeerLost(String address, String why) implements NodeEvent {}

  /** A checkpoint sync failed; the node fails its in-flight epochs. */
  record SyncFailed(long curr, long generation, String reason) implements NodeEvent {}

  /** A compaction run by {@link Compact} ended ({@code outcome} null when it failed). */
  record CompactionEnded(
      long requestId, CompactionOutcome outcome, String failure, ActorRef<ComputeEvent> replyTo)
      implements NodeEvent {}

  /** A checkpoint sync finished. */
  record SyncFinished(long curr, long generation, SyncResult<Object> result) implements NodeEvent {}
}
