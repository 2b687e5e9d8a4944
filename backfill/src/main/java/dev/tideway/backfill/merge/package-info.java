/**
 * The upstream-merge backfill loop shared by the arrangement and no-shuffle kinds: {@link
 * dev.tideway.backfill.merge.UpstreamMergeBackfill} over a {@link
 * dev.tideway.backfill.merge.SnapshotSource} that says what "the snapshot at the read epoch" is.
 */
package dev.tideway.backfill.merge;
