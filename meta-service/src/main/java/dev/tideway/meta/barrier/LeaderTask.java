package dev.tideway.meta.barrier;

/**
 * Work that runs beside the barrier loop while this process leads (the storage version manager's
 * compaction scheduling and vacuum). Started after the term's manager, closed before it.
 */
public interface LeaderTask {
  /**
   * Starts the task for one term.
   *
   * @param compute the term's compute client (shared with the barrier loop)
   * @param manager the term's barrier loop (committed epoch, compute nodes)
   * @return stops the task; called on deposition
   */
  AutoCloseable start(ComputeClient compute, GlobalBarrierManager<?> manager);
}
