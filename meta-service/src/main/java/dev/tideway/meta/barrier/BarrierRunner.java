package dev.tideway.meta.barrier;

import dev.tideway.barrier.global.BarrierConfig;
import dev.tideway.barrier.progress.JobProgress;
import dev.tideway.barrier.progress.ProgressConfig;
import dev.tideway.barrier.progress.ProgressUpdate;
import dev.tideway.common.time.Clock;
import dev.tideway.meta.catalog.DdlService;
import dev.tideway.meta.cluster.LeaderTerm;
import dev.tideway.meta.cluster.LeadershipListener;
import dev.tideway.protocol.compute.ExpressionErrorCount;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one {@link GlobalBarrierManager} per leader term: created on {@code onElected}, closed on
 * {@code onDeposed}. Called on the elector's owner thread, in order, so at most one manager of this
 * process is live.
 *
 * @param <S> the storage engine's SST info type
 */
public final class BarrierRunner<S> implements LeadershipListener {
  /** Connects a term's manager to the compute nodes (answers go to {@code manager}). */
  public interface ComputeConnector<S> {
    ComputeClient connect(GlobalBarrierManager<S> manager);
  }

  /**
   * How a meta process runs its barrier loop.
   *
   * @param config barrier scheduling, or null to follow the system parameters
   */
  public record Wiring<S>(
      BarrierConfig config,
      ProgressConfig progressConfig,
      ComputeConnector<S> compute,
      VersionCommitter<S> versions,
      Consumer<ProgressUpdate> progressListener,
      RecoveryBackoff backoff,
      BarrierObserver observer,
      List<LeaderTask> leaderTasks) {
    public Wiring {
      leaderTasks = List.copyOf(leaderTasks);
    }

    /** Default recovery backoff, no metrics, no leader tasks (compaction, vacuum). */
    public Wiring(
        BarrierConfig config,
        ProgressConfig progressConfig,
        ComputeConnector<S> compute,
        VersionCommitter<S> versions,
        Consumer<ProgressUpdate> progressListener) {
      this(
          config,
          progressConfig,
          compute,
          versions,
          progressListener,
          RecoveryBackoff.DEFAULT,
          BarrierObserver.NONE,
          List.of());
    }
  }

  private final Wiring<S> wiring;
  private final DdlService ddl;
  private final Clock clock;
  private static final Logger LOG = LoggerFactory.getLogger(BarrierRunner.class);
  private volatile GlobalBarrierManager<S> current;
  private List<AutoCloseable> tasks = List.of();

  /** The sinks' deliveries as the last commit of this process's terms reported them. */
  private final SinkDeliveries sinks = new SinkDeliveries();

  /** The backfilling actors' vnodes done, as the last commit of this process's terms had them. */
  private final VnodesDone vnodesDone = new VnodesDone();

  /** The compute nodes' heap and compaction activity, as this term's commits reported them. */
  private volatile NodeStatuses nodeStatuses = new NodeStatuses();

  /** The jobs' expression errors, collected from this term's compute nodes on demand. */
  private volatile ExpressionErrorBoard expressionErrors;

  /** The process's metrics, observed besides the wiring's observer; null for none. */
  private volatile BarrierObserver observer;

  /** Also reports the barrier loop to {@code o} (metrics) from the next term on. */
  public void observeWith(BarrierObserver o) {
    this.observer = o;
  }

  /** What to do when a term's loop halts (the meta server resigns the term); nothing by default. */
  private volatile BiConsumer<LeaderTerm, String> onHalt = (t, reason) -> {};

  /** Calls {@code hook} with the term and the reason when a term's barrier loop halts. */
  public void onHalt(BiConsumer<LeaderTerm, String> hook) {
    this.onHalt = hook;
  }

  /** The current term's manager, or null when not leading. */
  public GlobalBarrierManager<S> manager() {
    return current;
  }

  public BarrierRunner(Wiring<S> wiring, DdlService ddl, Clock clock) {
    this.wiring = wiring;
    this.ddl = ddl;
    this.clock = clock;
  }

  @Override
  public void onElected(LeaderTerm term) {
    @SuppressWarnings("unchecked")
    GlobalBarrierManager<S>[] self = new GlobalBarrierManager[1];
    ComputeClient lazy = new LazyComputeClient<>(wiring.compute(), () -> self[0]);
    NodeStatuses statuses = new NodeStatuses();
    nodeStatuses = statuses;
    BarrierObserver all =
        BarrierObserver.both(
            BarrierObserver.both(BarrierObserver.both(sinks, vnodesDone), statuses),
            observer == null
                ? wiring.observer()
                : BarrierObserver.both(observer, wiring.observer()));
    self[0] =
        new GlobalBarrierManager<>(
            new GlobalBarrierManager.Deps<>(
                wiring.config(),
                wiring.progressConfig(),
                clock,
                lazy,
                new ObservedVersions<>(wiring.versions(), all),
                ddl,
                u -> {
                  wiring.progressListener().accept(u);
                  all.onProgress(u);
                },
                all,
                wiring.backoff()),
            term);
    current = self[0];
    expressionErrors = new ExpressionErrorBoard(lazy, self[0]::computeNodes, clock);
    current.onHalt(reason -> onHalt.accept(term, reason));
    current.start();
    List<AutoCloseable> started = new ArrayList<>();
    for (LeaderTask t : wiring.leaderTasks()) {
      started.add(t.start(lazy, current));
    }
    tasks = started;
  }

  @Override
  public void onDeposed(LeaderTerm term, String reason) {
    for (AutoCloseable t : tasks) {
      try {
        t.close();
      } catch (Exception e) {
        LOG.warn("closing a leader task of epoch {} failed", term.epoch(), e);
      }
    }
    tasks = List.of();
    GlobalBarrierManager<S> m = current;
    current = null;
    if (m != null) {
      m.close();
    }
  }

  /** Each running sink actor's delivery at the last commit; empty when not leading. */
  public Map<Integer, SinkDeliveries.Delivered> sinkDeliveries() {
    return current == null ? Map.of() : sinks.byActor();
  }

  /**
   * Each compute node's heap and compaction activity at the last commit, by address; empty when not
   * leading.
   */
  public Map<String, NodeStatuses.Status> nodeStatuses() {
    GlobalBarrierManager<S> m = current;
    Map<String, NodeStatuses.Status> out = new java.util.TreeMap<>();
    if (m != null) {
      nodeStatuses.byNode().forEach((id, st) -> m.nodeAddress(id).ifPresent(a -> out.put(a, st)));
    }
    return out;
  }

  /**
   * The streaming jobs' expression errors summed over the compute nodes (see {@link
   * ExpressionErrorBoard}); empty when not leading.
   */
  public List<ExpressionErrorCount> expressionErrors() {
    ExpressionErrorBoard b = expressionErrors;
    return current == null || b == null ? List.of() : b.latest();
  }

  /** Each backfilling actor's vnodes done at the last commit; empty when not leading. */
  public Map<Integer, VnodesDone.Count> vnodesDone() {
    return current == null ? Map.of() : vnodesDone.byActor();
  }

  /** The creating jobs' progress at the last commit; empty when not leading. */
  public Map<Long, JobProgress> progress() {
    GlobalBarrierManager<S> m = current;
    return m == null ? Map.of() : m.progress();
  }
}
