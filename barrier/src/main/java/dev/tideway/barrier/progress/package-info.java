/**
 * Create-MV progress, both ends. Compute side: one {@link
 * dev.tideway.barrier.progress.CreateMviewProgressReporter} per backfill actor reports its {@link
 * dev.tideway.barrier.progress.BackfillState} before yielding each barrier; reports travel with
 * that epoch as a {@link dev.tideway.barrier.progress.ProgressBatch}. Meta side: {@link
 * dev.tideway.barrier.progress.CreateMviewProgressTracker} applies the reports of each committed
 * epoch against the committed version's table stats and produces structured {@link
 * dev.tideway.barrier.progress.JobProgress}, rendered to RisingWave-compatible strings by {@link
 * dev.tideway.barrier.progress.ProgressRendering}.
 *
 * <p>Invariants: per actor, epochs, consumed epochs, cumulative rows and the state's phase never go
 * backwards; a job's {@code displayRatio} never decreases and is 1.0 exactly when the job is done;
 * a job is done only on a checkpoint commit.
 */
package dev.tideway.barrier.progress;
