package dev.tideway.barrier.progress;

/** What a backfill actor reads: a table or MV (has a denominator) or a source (rows only). */
public enum UpstreamType {
  TABLE,
  SOURCE
}
