/**
 * Wires the barrier module's {@code CreateMviewProgressTracker} to the catalog: the {@link
 * dev.tideway.meta.progress.JobSpecs} of a job come from its fragments, and each job's tracker
 * state is persisted with every checkpoint commit ({@link
 * dev.tideway.meta.progress.ProgressSnapshotCodec}) in its {@code jobs/<id>} znode, so a new leader
 * restores progress instead of restarting it at zero.
 *
 * <p>Invariant: a CREATING job always has a snapshot (an initial one is written when the job is
 * accepted), so a leader can rebuild its tracker from ZooKeeper alone.
 */
package dev.tideway.meta.progress;
