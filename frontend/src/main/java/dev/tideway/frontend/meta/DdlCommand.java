package dev.tideway.frontend.meta;

import java.util.List;

/** A catalog change the frontend submits to meta. */
public sealed interface DdlCommand {
  /** Create a table, source or materialized view; {@code background} only for MVs. */
  record Create(Relation relation, boolean background) implements DdlCommand {}

  /** Drop a relation (and, with cascade, what depends on it). */
  record Drop(int relationId, boolean cascade) implements DdlCommand {}

  /** Cancel creating jobs. */
  record CancelJobs(List<Long> jobIds) implements DdlCommand {}
}
