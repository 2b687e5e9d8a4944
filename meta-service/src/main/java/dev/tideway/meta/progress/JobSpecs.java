package dev.tideway.meta.progress;

import dev.tideway.barrier.message.Mutation;
import dev.tideway.barrier.progress.BackfillActor;
import dev.tideway.barrier.progress.BackfillMode;
import dev.tideway.barrier.progress.CreateMviewProgressTracker;
import dev.tideway.barrier.progress.JobSpec;
import dev.tideway.barrier.progress.ProgressConfig;
import dev.tideway.barrier.progress.TrackerSnapshot;
import dev.tideway.common.plan.BackfillKind;
import dev.tideway.common.plan.StreamNode;
import dev.tideway.common.plan.StreamPlanNode;
import dev.tideway.meta.fragment.StreamFragment;
import dev.tideway.protocol.catalog.FragmentGraph.Actor;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Derives a job's {@link JobSpec} from its fragments (pure): every actor of a fragment holding a
 * {@code StreamScan} is a table backfill actor; each scan operator counts once per upstream table
 * (a self-join scans twice); any snapshot backfill makes the job a SNAPSHOT job.
 */
public final class JobSpecs {
  private JobSpecs() {}

  public static JobSpec of(int jobId, List<StreamFragment> fragments, List<Actor> actors) {
    List<BackfillActor> backfill = new ArrayList<>();
    Map<Integer, Integer> scans = new HashMap<>();
    boolean snapshot = false;
    for (StreamFragment f : fragments) {
      if (hasSourceBackfill(f.root())) {
        actors.stream()
            .filter(a -> a.fragmentId() == f.fragmentId())
            .forEach(a -> backfill.add(BackfillActor.source(a.actorId())));
        continue;
      }
      List<StreamNode.StreamScan> found = new ArrayList<>();
      collect(f.root(), found);
      if (found.isEmpty()) {
        continue;
      }
      for (StreamNode.StreamScan s : found) {
        scans.merge(s.upstreamTableId(), 1, Integer::sum);
        snapshot |= s.backfillKind() == BackfillKind.SNAPSHOT;
      }
      actors.stream()
          .filter(a -> a.fragmentId() == f.fragmentId())
          .forEach(a -> backfill.add(BackfillActor.table(a.actorId())));
    }
    return new JobSpec(
        jobId, snapshot ? BackfillMode.SNAPSHOT : BackfillMode.ARRANGEMENT, backfill, scans);
  }

  private static void sourceBackfillRates(StreamPlanNode n, List<Long> out) {
    if (n.node() instanceof dev.tideway.common.plan.SourceBackfillNode s) {
      out.add(s.rateLimit());
    }
    n.inputs().forEach(i -> sourceBackfillRates(i, out));
  }

  private static boolean hasSourceBackfill(StreamPlanNode n) {
    return n.node() instanceof dev.tideway.common.plan.SourceBackfillNode
        || n.inputs().stream().anyMatch(JobSpecs::hasSourceBackfill);
  }

  private static void collect(StreamPlanNode n, List<StreamNode.StreamScan> out) {
    if (n.node() instanceof StreamNode.StreamScan s) {
      out.add(s);
    }
    n.inputs().forEach(i -> collect(i, out));
  }

  /**
   * The rate limits its plan gives each backfill actor ({@code SET backfill_rate_limit} before the
   * {@code CREATE}), so progress shows the job THROTTLED from its start, as a later {@code ALTER}
   * would; actors without a limit are absent.
   */
  public static Map<Integer, Long> rateLimits(List<StreamFragment> fragments, List<Actor> actors) {
    Map<Integer, Long> out = new HashMap<>();
    for (StreamFragment f : fragments) {
      List<StreamNode.StreamScan> found = new ArrayList<>();
      collect(f.root(), found);
      List<Long> rates = new ArrayList<>();
      found.forEach(s -> rates.add(s.rateLimit()));
      sourceBackfillRates(f.root(), rates);
      long limit = StreamNode.StreamScan.UNLIMITED;
      for (long rate : rates) {
        if (rate != StreamNode.StreamScan.UNLIMITED) {
          limit = limit == StreamNode.StreamScan.UNLIMITED ? rate : Math.min(limit, rate);
        }
      }
      if (limit != StreamNode.StreamScan.UNLIMITED) {
        long l = limit;
        actors.stream()
            .filter(a -> a.fragmentId() == f.fragmentId())
            .forEach(a -> out.put(a.actorId(), l));
      }
    }
    return out;
  }

  /**
   * The persisted snapshot of a job nobody has reported for yet (written when it is accepted), with
   * the plan's per-actor rate limits ({@link #rateLimits}).
   */
  public static byte[] initialSnapshot(JobSpec spec, Map<Integer, Long> rateLimits) {
    CreateMviewProgressTracker t = new CreateMviewProgressTracker(ProgressConfig.DEFAULT);
    t.register(spec, null, 0);
    if (!rateLimits.isEmpty()) {
      t.onMutation(new Mutation.Throttle(rateLimits));
    }
    TrackerSnapshot s = t.snapshot(0);
    return ProgressSnapshotCodec.encode(0, s.meanBarrierIntervalMs(), s.jobs().get(0));
  }
}
