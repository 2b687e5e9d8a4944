package dev.tideway.barrier.message;

import dev.tideway.barrier.epoch.EpochPair;
import dev.tideway.common.check.Checks;
import java.util.Optional;

/**
 * A barrier: closes {@code epoch.prev()}, carries its {@link BarrierKind} and at most one {@link
 * Mutation}. A barrier with a mutation that forces a checkpoint is always a checkpoint.
 *
 * @param mutation the mutation, or null for a plain clock tick
 */
public record Barrier(EpochPair epoch, BarrierKind kind, Mutation mutation) implements Message {
  public Barrier {
    Checks.checkNotNull(epoch, "barrier epoch");
    Checks.checkNotNull(kind, "barrier kind");
    Checks.checkArgument(
        mutation == null || !mutation.forcesCheckpoint() || kind != BarrierKind.BARRIER,
        "barrier %s carries %s, which needs a checkpoint, but is kind %s",
        epoch,
        mutation,
        kind);
  }

  /** A barrier without a mutation. */
  public static Barrier of(EpochPair epoch, BarrierKind kind) {
    return new Barrier(epoch, kind, null);
  }

  public Optional<Mutation> mutationOpt() {
    return Optional.ofNullable(mutation);
  }

  public long curr() {
    return epoch.curr();
  }

  public long prev() {
    return epoch.prev();
  }

  public boolean isCheckpoint() {
    return kind.isCheckpoint();
  }

  /** True when this barrier stops {@code actorId}. */
  public boolean stops(int actorId) {
    return mutation instanceof Mutation.Stop stop && stop.actors().contains(actorId);
  }

  @Override
  public String toString() {
    return "Barrier" + epoch + " " + kind + (mutation == null ? "" : " " + mutation);
  }
}
