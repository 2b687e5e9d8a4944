/**
 * The barrier loop's shell: {@link dev.tideway.meta.barrier.GlobalBarrierManager} runs the barrier
 * module's pure {@code GlobalBarrierCore} on one thread and carries out its decisions in order. The
 * compute side ({@link dev.tideway.meta.barrier.ComputeClient}) and the storage version manager
 * ({@link dev.tideway.meta.barrier.VersionCommitter}) are interfaces, so a test scripts them call
 * by call.
 *
 * <p>Commit order per checkpoint (DESIGN §3): 1. the storage version is committed (the delta made
 * durable by the version committer); 2. the progress tracker applies the epoch's reports against
 * that version's stats; 3. one fenced ZooKeeper write persists the version pointer, every creating
 * job's tracker snapshot and the jobs that became CREATED; 4. only then are waiters released.
 */
package dev.tideway.meta.barrier;
