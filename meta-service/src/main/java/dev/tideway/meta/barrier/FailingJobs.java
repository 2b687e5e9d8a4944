package dev.tideway.meta.barrier;

import dev.tideway.barrier.control.NodeFailure;
import dev.tideway.common.check.Checks;
import dev.tideway.protocol.catalog.CatalogState;
import dev.tideway.protocol.catalog.FragmentGraph;
import dev.tideway.protocol.catalog.JobRecord;
import dev.tideway.protocol.catalog.JobStatus;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/**
 * Which streaming job keeps failing, so that one job's fault cannot stall every other job's
 * checkpoints forever (a recovery restarts the whole graph, and a job that fails again at once
 * would make the cluster recover in a loop).
 *
 * <p>Every recovery started by an actor failure is attributed to the failed actor's job. A failure
 * counts unless its reason names the infrastructure rather than the job (an exchange channel, an
 * interrupted thread, the state store, I/O): those come and go with nodes and networks and say
 * nothing about the job. A job with {@link #maxFailures} counted failures in a row, with no
 * checkpoint committed between them ({@link #onCommit}: a commit means every actor, the job's
 * included, passed a checkpoint barrier since the last reset), is <em>due</em>: the barrier loop
 * isolates it before its next reset (a creating job is removed and its {@code CREATE} fails with
 * the reason; a created one is paused with its downstream jobs, see {@link #running}). A backfill
 * that crashes now and then but moves on between crashes is never due; one that fails at the same
 * row every time stops committing ahead of it and becomes due.
 *
 * <p>Confined to the barrier loop's thread.
 */
public final class FailingJobs {
  /** Three failures in a row, as RisingWave's and Flink's default restart attempts go. */
  public static final int DEFAULT_MAX_FAILURES = 3;

  /** Reason fragments of failures that are the infrastructure's, not the job's. */
  private static final List<String> INFRASTRUCTURE =
      List.of(
          "ChannelFailed",
          "ActorInterrupted",
          "InterruptedException",
          "StorageException",
          "IOException",
          "SerdeException",
          "no such actor");

  private final int maxFailures;
  private final Map<Integer, Integer> failures = new HashMap<>();
  private final Map<Integer, String> due = new LinkedHashMap<>();

  /**
   * @param maxFailures counted failures in a row that make a job due ({@code >= 1})
   */
  public FailingJobs(int maxFailures) {
    Checks.checkArgument(maxFailures >= 1, "max failures must be >= 1, got %s", maxFailures);
    this.maxFailures = maxFailures;
  }

  /** Whether a failure with {@code reason} says something about its job. */
  public static boolean jobFault(String reason) {
    return reason != null && INFRASTRUCTURE.stream().noneMatch(reason::contains);
  }

  /**
   * The failure {@code f} started a recovery: counts it against its actor's job in {@code catalog}.
   * Returns the job id when this failure made the job due.
   */
  public OptionalInt onFailure(CatalogState catalog, NodeFailure f) {
    OptionalInt job = jobOf(catalog, f.actorId());
    if (job.isEmpty() || !jobFault(f.reason())) {
      return OptionalInt.empty();
    }
    int jobId = job.getAsInt();
    int n = failures.merge(jobId, 1, Integer::sum);
    if (n < maxFailures || due.containsKey(jobId)) {
      return OptionalInt.empty();
    }
    due.put(
        jobId,
        String.format(
            "its actors failed %d times in a row, with no checkpoint committed between; last: %s",
            n, f.reason()));
    return OptionalInt.of(jobId);
  }

  /** A checkpoint committed: every running actor passed a barrier; failures count afresh. */
  public void onCommit() {
    failures.clear();
  }

  /** Jobs to isolate before the next reset, with why, in the order they became due. */
  public Map<Integer, String> due() {
    return Map.copyOf(due);
  }

  /** Job {@code jobId} is isolated (or gone): forget its failures. */
  public void settled(int jobId) {
    due.remove(jobId);
    failures.remove(jobId);
  }

  /** The job whose graph holds actor {@code actorId}. */
  static OptionalInt jobOf(CatalogState catalog, int actorId) {
    for (FragmentGraph g : catalog.fragments().values()) {
      for (FragmentGraph.Actor a : g.actors()) {
        if (a.actorId() == actorId) {
          return OptionalInt.of(g.jobId());
        }
      }
    }
    return OptionalInt.empty();
  }

  /** Whether job {@code jobId} is paused in {@code catalog}: its actors run nowhere. */
  public static boolean paused(CatalogState catalog, int jobId) {
    JobRecord j = catalog.jobs().get(jobId);
    return j != null && j.status() == JobStatus.PAUSED;
  }

  /**
   * {@code catalog} with the fragment graphs of paused jobs left out: what a reset builds and what
   * barriers flow through. (Every job downstream of a paused one is paused with it, so no running
   * actor reads a paused one; upstream actors lose their outputs to it, as wiring is derived from
   * the downstream graphs.)
   */
  public static CatalogState running(CatalogState catalog) {
    if (catalog.jobs().values().stream().noneMatch(j -> j.status() == JobStatus.PAUSED)) {
      return catalog;
    }
    Map<Integer, FragmentGraph> graphs = new HashMap<>(catalog.fragments());
    graphs.keySet().removeIf(jobId -> paused(catalog, jobId));
    return new CatalogState(
        catalog.params(),
        catalog.objects(),
        catalog.jobs(),
        graphs,
        catalog.versionPointer(),
        catalog.nextId(),
        catalog.recoveries());
  }
}
