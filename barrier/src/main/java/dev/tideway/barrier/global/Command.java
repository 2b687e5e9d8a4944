package dev.tideway.barrier.global;

import dev.tideway.barrier.message.Mutation;
import dev.tideway.common.check.Checks;

/**
 * A DDL or control command that rides on the next barrier, which it forces to be a checkpoint
 * (unless its mutation is {@code Resume}).
 *
 * @param topology the topology from this barrier on (an {@code Add} collects its new actors on the
 *     barrier carrying it), or null to keep the current one
 */
public record Command(long id, Mutation mutation, Topology topology) {
  public Command {
    Checks.checkNotNull(mutation, "command mutation");
  }
}
