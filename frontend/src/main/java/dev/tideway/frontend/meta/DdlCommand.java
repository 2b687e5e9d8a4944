package dev.tideway.frontend.meta;

import dev.tideway.common.check.Checks;
import java.util.List;
import java.util.OptionalLong;

/** A catalog change the frontend submits to meta. */
public sealed interface DdlCommand {
  /**
   * Create a table, source or materialized view.
   *
   * @param relation what to create
   * @param background only for MVs: return at once and let the job run ({@code SET BACKGROUND_DDL})
   * @param backfillRateLimit only for MVs: the session's {@code backfill_rate_limit} in rows per
   *     second for each backfill of the job ({@code 0} pauses it); empty means unlimited ({@code
   *     DEFAULT}). Meta applies it as a {@code Throttle} mutation when the job starts.
   */
  record Create(Relation relation, boolean background, OptionalLong backfillRateLimit)
      implements DdlCommand {
    public Create {
      Checks.checkNotNull(relation, "created relation");
      Checks.checkNotNull(backfillRateLimit, "backfill rate limit of " + relation.name());
      Checks.checkArgument(
          backfillRateLimit.isEmpty() || backfillRateLimit.getAsLong() >= 0,
          "backfill rate limit of %s must be >= 0, got %s",
          relation.name(),
          backfillRateLimit);
    }

    /** A create without a backfill rate limit. */
    public Create(Relation relation, boolean background) {
      this(relation, background, OptionalLong.empty());
    }
  }

  /** Drop a relation (and, with cascade, what depends on it). */
  record Drop(int relationId, boolean cascade) implements DdlCommand {}

  /** Cancel creating jobs. */
  record CancelJobs(List<Long> jobIds) implements DdlCommand {}
}
