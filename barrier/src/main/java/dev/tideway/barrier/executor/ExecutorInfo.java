package dev.tideway.barrier.executor;

import dev.tideway.common.check.Checks;

/** Who an executor is, for messages: the actor it runs in, its id in the actor and its name. */
public record ExecutorInfo(int actorId, long executorId, String name) {
  public ExecutorInfo {
    Checks.checkNotNull(name, "executor name");
  }

  @Override
  public String toString() {
    return "actor " + actorId + " executor " + executorId + " (" + name + ")";
  }
}
