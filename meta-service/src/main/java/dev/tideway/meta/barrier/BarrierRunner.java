package dev.tideway.meta.barrier;

import dev.tideway.barrier.global.BarrierConfig;
import dev.tideway.barrier.progress.JobProgress;
import dev.tideway.barrier.progress.ProgressConfig;
import dev.tideway.barrier.progress.ProgressUpdate;
import dev.tideway.common.time.Clock;
import dev.tideway.meta.catalog.DdlService;
import dev.tideway.meta.cluster.LeaderTerm;
import dev.tideway.meta.cluster.LeadershipListener;
import java.util.Map;
import java.util.function.Consumer;

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
      Consumer<ProgressUpdate> progressListener) {}

  private final Wiring<S> wiring;
  private final DdlService ddl;
  private final Clock clock;
  private volatile GlobalBarrierManager<S> current;

  public BarrierRunner(Wiring<S> wiring, DdlService ddl, Clock clock) {
    this.wiring = wiring;
    this.ddl = ddl;
    this.clock = clock;
  }

  @Override
  public void onElected(LeaderTerm term) {
    @SuppressWarnings("unchecked")
    GlobalBarrierManager<S>[] self = new GlobalBarrierManager[1];
    ComputeClient lazy =
        new ComputeClient() {
          private ComputeClient delegate;

          private ComputeClient d() {
            if (delegate == null) {
              delegate = wiring.compute().connect(self[0]);
            }
            return delegate;
          }

          @Override
          public void inject(dev.tideway.barrier.control.InjectBarrier request) {
            d().inject(request);
          }

          @Override
          public void reset(long generation, long committedEpoch) {
            d().reset(generation, committedEpoch);
          }
        };
    self[0] =
        new GlobalBarrierManager<>(
            new GlobalBarrierManager.Deps<>(
                wiring.config(),
                wiring.progressConfig(),
                clock,
                lazy,
                wiring.versions(),
                ddl,
                wiring.progressListener()),
            term);
    current = self[0];
    current.start();
  }

  @Override
  public void onDeposed(LeaderTerm term, String reason) {
    GlobalBarrierManager<S> m = current;
    current = null;
    if (m != null) {
      m.close();
    }
  }

  /** The creating jobs' progress at the last commit; empty when not leading. */
  public Map<Long, JobProgress> progress() {
    GlobalBarrierManager<S> m = current;
    return m == null ? Map.of() : m.progress();
  }
}
