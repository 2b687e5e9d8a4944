package dev.tideway.barrier.control;

import java.util.List;

/**
 * One node → meta: an actor failed, so these in-flight epochs will never complete on this node.
 * Meta answers with recovery.
 */
public record NodeFailure(
    int nodeId, long generation, int actorId, String reason, List<Long> failedEpochs) {
  public NodeFailure {
    failedEpochs = List.copyOf(failedEpochs);
  }
}
