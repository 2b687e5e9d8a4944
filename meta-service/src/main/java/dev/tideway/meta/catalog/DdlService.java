package dev.tideway.meta.catalog;

import dev.tideway.common.exec.Threads;
import dev.tideway.common.time.Clock;
import dev.tideway.meta.cluster.FencedMetaStore;
import dev.tideway.meta.cluster.LeaderTerm;
import dev.tideway.meta.cluster.LeadershipListener;
import dev.tideway.meta.cluster.MetaWrite;
import dev.tideway.meta.schedule.Worker;
import dev.tideway.protocol.catalog.CatalogChange;
import dev.tideway.protocol.catalog.CatalogState;
import dev.tideway.protocol.catalog.JobRecord;
import dev.tideway.protocol.catalog.JobStatus;
import dev.tideway.protocol.meta.DdlCommand;
import dev.tideway.protocol.meta.DdlReply;
import dev.tideway.protocol.meta.NotLeaderException;
import dev.tideway.protocol.store.CatalogLoader;
import dev.tideway.protocol.store.MetaStoreException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The DDL shell: owns the leader's {@link CatalogState} on one thread ({@code meta-ddl-1}), runs
 * {@link CatalogCore} on each command, persists the decision in one fenced commit, then replays it.
 *
 * <p>Order per command: decide → commit to ZooKeeper → apply to the in-memory state → publish the
 * new state to readers → complete the reply. A reply is never sent for a change ZooKeeper has not
 * accepted.
 *
 * <p>NOTE: on {@link MetaStoreException.Reason#UNKNOWN_OUTCOME} the write may have landed; the
 * service reloads the whole state from ZooKeeper (reconcile) and fails the request with that
 * reason, so the caller re-checks instead of retrying blindly. Never undo such a write.
 *
 * <p>Thread confinement: {@link #state} and {@link #term} are touched only on the owner thread;
 * {@link #published} is a volatile snapshot for readers (HTTP, metrics).
 */
public final class DdlService implements LeadershipListener, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(DdlService.class);

  private final FencedMetaStore store;
  private final CatalogCore core;
  private final Supplier<List<Worker>> workers;
  private final Clock clock;
  private final ExecutorService owner = Threads.singleThread("meta-ddl");

  private Optional<LeaderTerm> term = Optional.empty();
  private CatalogState state;
  private volatile Optional<CatalogState> published = Optional.empty();

  /** Foreground DDL waiting for its job to become CREATED; owner thread only. */
  private final Map<Integer, List<CompletableFuture<JobRecord>>> createdWaiters = new HashMap<>();

  /** Why a job is being removed by {@link DdlCommand.FailJob}; owner thread only. */
  private final Map<Integer, String> failureReasons = new HashMap<>();

  /**
   * The failed answers of foreground DDL whose job a recovery removed, held until the recovery's
   * reset is done ({@link #releaseHeldFailures}); owner thread only.
   */
  private final List<Runnable> heldFailures = new ArrayList<>();

  private boolean holdingFailures;

  /**
   * @param workers the live compute nodes, read on the owner thread before each decision
   */
  public DdlService(
      FencedMetaStore store, CatalogCore core, Supplier<List<Worker>> workers, Clock clock) {
    this.store = store;
    this.core = core;
    this.workers = workers;
    this.clock = clock;
  }

  @Override
  public void onElected(LeaderTerm t) {
    owner.execute(() -> becomeLeader(t));
  }

  @Override
  public void onDeposed(LeaderTerm t, String reason) {
    owner.execute(
        () -> {
          term = Optional.empty();
          state = null;
          published = Optional.empty();
          heldFailures.forEach(Runnable::run); // their jobs are gone: the answer stands
          heldFailures.clear();
          failWaiters(
              null, "meta leader deposed (" + reason + "); the job carries on, ask the new leader");
        });
  }

  /**
   * Completes when job {@code jobId} is CREATED (foreground DDL); fails if the job is dropped or
   * cancelled, or if this process stops leading (the job itself carries on under the new leader).
   */
  public CompletableFuture<JobRecord> awaitCreated(int jobId) {
    CompletableFuture<JobRecord> f = new CompletableFuture<>();
    owner.execute(
        () -> {
          JobRecord j = state == null ? null : state.jobs().get(jobId);
          if (state == null) {
            f.completeExceptionally(new NotLeaderException("this meta process does not lead"));
          } else if (j == null) {
            f.completeExceptionally(new IllegalStateException("job " + jobId + " does not exist"));
          } else if (j.status() == JobStatus.CREATED) {
            f.complete(j);
          } else {
            createdWaiters.computeIfAbsent(jobId, k -> new ArrayList<>()).add(f);
          }
        });
    return f;
  }

  /** Releases the waiters a persisted change resolves; owner thread, after the change applied. */
  private void releaseWaiters(CatalogChange c) {
    if (c instanceof CatalogChange.PutJob put && put.job().status() == JobStatus.CREATED) {
      List<CompletableFuture<JobRecord>> ws = createdWaiters.remove(put.job().jobId());
      if (ws != null) {
        ws.forEach(w -> w.complete(put.job()));
      }
    } else if (c instanceof CatalogChange.DeleteJob del) {
      String why = failureReasons.remove(del.jobId());
      String answer = why != null ? why : "job " + del.jobId() + " was dropped or cancelled";
      if (holdingFailures) {
        heldFailures.add(() -> failWaiters(del.jobId(), answer));
      } else {
        failWaiters(del.jobId(), answer);
      }
    }
  }

  private void failWaiters(Integer jobId, String why) {
    createdWaiters
        .entrySet()
        .removeIf(
            e -> {
              if (jobId != null && !e.getKey().equals(jobId)) {
                return false;
              }
              Exception ex =
                  jobId == null ? new NotLeaderException(why) : new IllegalStateException(why);
              e.getValue().forEach(w -> w.completeExceptionally(ex));
              return true;
            });
  }

  private void becomeLeader(LeaderTerm t) {
    try {
      term = Optional.of(t);
      state = CatalogLoader.load(store);
      List<CatalogChange> boot = core.bootstrap(state);
      if (!boot.isEmpty()) {
        persist(boot);
      }
      published = Optional.of(state);
      LOG.info(
          "meta epoch {} loaded {} objects, {} jobs",
          t.epoch(),
          state.objects().size(),
          state.jobs().size());
    } catch (RuntimeException e) {
      LOG.error("meta epoch {} could not load metadata; not serving DDL", t.epoch(), e);
      term = Optional.empty();
      state = null;
    }
  }

  /** Submits {@code cmd}; the future completes after its changes are persisted and applied. */
  public CompletableFuture<DdlReply> submit(DdlCommand cmd) {
    return submit(cmd, false);
  }

  /**
   * Submits a recovery's {@link DdlCommand.FailJob} or {@link DdlCommand.PauseJob}: the {@code
   * CREATE}s it fails are answered by {@link #releaseHeldFailures}, once the reset took the jobs'
   * actors away. A client told of the failure then writes into the rebuilt graph, not into one the
   * reset is about to discard.
   */
  public CompletableFuture<DdlReply> submitFailureAfterReset(DdlCommand cmd) {
    return submit(cmd, true);
  }

  /** Answers the failed {@code CREATE}s held by {@link #submitFailureAfterReset}. */
  public void releaseHeldFailures() {
    owner.execute(
        () -> {
          heldFailures.forEach(Runnable::run);
          heldFailures.clear();
        });
  }

  private CompletableFuture<DdlReply> submit(DdlCommand cmd, boolean holdFailures) {
    CompletableFuture<DdlReply> reply = new CompletableFuture<>();
    owner.execute(
        () -> {
          holdingFailures = holdFailures;
          try {
            reply.complete(handle(cmd));
          } catch (RuntimeException e) {
            reply.completeExceptionally(e);
          } finally {
            holdingFailures = false;
          }
        });
    return reply;
  }

  private DdlReply handle(DdlCommand cmd) {
    if (term.isEmpty() || state == null) {
      throw new NotLeaderException("this meta process does not lead; retry at the leader");
    }
    DdlDecision d =
        core.decide(cmd, state, new ClusterView(workers.get(), clock.currentTimeMillis()));
    if (!d.changes().isEmpty()) {
      if (cmd instanceof DdlCommand.FailJob f) {
        failureReasons.put(f.jobId(), f.reason());
      } else if (cmd instanceof DdlCommand.PauseJob p) {
        d.changes().stream()
            .filter(c -> c instanceof CatalogChange.DeleteJob)
            .forEach(
                c ->
                    failureReasons.put(
                        ((CatalogChange.DeleteJob) c).jobId(),
                        "its upstream job " + p.jobId() + " was paused: " + p.reason()));
      }
      try {
        persist(d.changes());
      } finally {
        failureReasons.clear();
      }
      published = Optional.of(state);
    }
    return d.reply();
  }

  /** Commits {@code changes} fenced, then applies them; owner thread only. */
  private void persist(List<CatalogChange> changes) {
    List<MetaWrite> writes =
        changes.stream().map(c -> CatalogWrites.toWrite(c, store.paths())).toList();
    try {
      store.commit(term.orElseThrow(), writes);
    } catch (MetaStoreException e) {
      if (e.reason() == MetaStoreException.Reason.FENCED) {
        term = Optional.empty();
        state = null;
        published = Optional.empty();
      } else if (e.reason() == MetaStoreException.Reason.UNKNOWN_OUTCOME) {
        state = CatalogLoader.load(store);
        published = Optional.of(state);
      }
      throw e;
    }
    for (CatalogChange c : changes) {
      state = state.apply(c);
    }
    changes.forEach(this::releaseWaiters);
  }

  /** The latest state this leader persisted; empty when not leading. */
  public Optional<CatalogState> snapshot() {
    return published;
  }

  @Override
  public void close() {
    owner.shutdown();
  }
}
