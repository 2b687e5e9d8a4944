package dev.tideway.barrier.progress;

import dev.tideway.common.check.Checks;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the tracker needs to know about a creating job: its backfill actors and the upstream tables
 * with how often each is scanned (a self-join scans its table twice, and counts twice).
 *
 * @param scansByTable upstream table id -> number of scans of it in this job
 */
public record JobSpec(
    long jobId, BackfillMode mode, List<BackfillActor> actors, Map<Integer, Integer> scansByTable) {
  public JobSpec {
    Checks.checkNotNull(mode, "backfill mode");
    actors = List.copyOf(actors);
    scansByTable = Map.copyOf(scansByTable);
    Set<Integer> seen = new HashSet<>();
    for (BackfillActor a : actors) {
      Checks.checkArgument(
          seen.add(a.actorId()), "job %s lists actor %s twice", jobId, a.actorId());
    }
    scansByTable.forEach(
        (t, n) -> Checks.checkArgument(n > 0, "job %s scans table %s %s times", jobId, t, n));
  }
}
