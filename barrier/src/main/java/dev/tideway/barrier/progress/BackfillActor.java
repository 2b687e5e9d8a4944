package dev.tideway.barrier.progress;

import dev.tideway.common.check.Checks;

/** One backfill actor of a creating job. */
public record BackfillActor(int actorId, UpstreamType upstream) {
  public BackfillActor {
    Checks.checkNotNull(upstream, "upstream type");
  }

  public static BackfillActor table(int actorId) {
    return new BackfillActor(actorId, UpstreamType.TABLE);
  }

  public static BackfillActor source(int actorId) {
    return new BackfillActor(actorId, UpstreamType.SOURCE);
  }
}
