package dev.tideway.frontend.cluster;

import dev.tideway.barrier.progress.JobProgress;
import dev.tideway.common.time.Clock;
import dev.tideway.protocol.catalog.CatalogState;
import dev.tideway.protocol.catalog.LeaderInfo;
import dev.tideway.protocol.meta.DdlCommand;
import dev.tideway.protocol.meta.DdlRejectedException;
import dev.tideway.protocol.meta.DdlReply;
import dev.tideway.protocol.meta.MetaProtocol;
import dev.tideway.protocol.store.CatalogLoader;
import dev.tideway.protocol.store.MetaPaths;
import dev.tideway.protocol.store.MetaStoreReader;
import dev.tideway.protocol.store.NodeRegistry;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.apache.curator.framework.CuratorFramework;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorRefResolver;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * The meta leader as a frontend in another process reaches it: the catalog is read from ZooKeeper
 * directly (reads need no fencing), cached for a short time and dropped after every DDL; commands
 * and progress go to the leader's {@code MetaEndpoint} over Pekko, found through the leader address
 * the elector publishes. A request to a deposed leader fails with a clear error; the next one goes
 * to the new leader.
 *
 * <p>Thread-safe.
 */
public final class RemoteMetaAccess implements MetaAccess {
  private static final long CACHE_MS = 200;
  private static final long PROGRESS_TIMEOUT_MS = 5_000;

  private final ActorSystem<?> system;
  private final MetaStoreReader reader;
  private final NodeRegistry registry;
  private final Clock clock;
  private final ActorRef<MetaProtocol.Answer> answers;
  private final AtomicLong nextRequest = new AtomicLong(1);
  private final Map<Long, CompletableFuture<MetaProtocol.Answer>> pending =
      new ConcurrentHashMap<>();

  private volatile CatalogState cached;
  private volatile long cachedAtMs;

  public RemoteMetaAccess(
      ActorSystem<?> system, CuratorFramework zk, String clusterId, Clock clock) {
    this.system = system;
    MetaPaths paths = new MetaPaths(clusterId);
    this.reader = new MetaStoreReader(zk, paths);
    this.registry = new NodeRegistry(zk, paths);
    this.clock = clock;
    this.answers =
        system.systemActorOf(
            Behaviors.<MetaProtocol.Answer>receiveMessage(
                a -> {
                  CompletableFuture<MetaProtocol.Answer> f = pending.remove(a.requestId());
                  if (f != null) {
                    f.complete(a);
                  }
                  return Behaviors.same();
                }),
            "meta-answers",
            Props.empty());
  }

  /** This process's registry view (frontends register themselves through it). */
  public NodeRegistry registry() {
    return registry;
  }

  @Override
  public Optional<CatalogState> catalog() {
    long now = clock.currentTimeMillis();
    CatalogState c = cached;
    if (c == null || now - cachedAtMs > CACHE_MS) {
      c = CatalogLoader.load(reader);
      cached = c;
      cachedAtMs = now;
    }
    return ifBootstrapped(c);
  }

  private static Optional<CatalogState> ifBootstrapped(CatalogState c) {
    boolean bootstrapped =
        c.objects().values().stream().anyMatch(o -> o.kind().name().equals("DATABASE"));
    return bootstrapped ? Optional.of(c) : Optional.empty();
  }

  private void invalidate() {
    cached = null;
  }

  @Override
  public CompletableFuture<Integer> submit(DdlCommand command) {
    return ask(id -> new MetaProtocol.Submit(id, command, answers))
        .thenApply(
            a -> {
              invalidate();
              if (!a.rejectReason().isEmpty()) {
                throw new DdlRejectedException(
                    DdlReply.Rejected.Reason.valueOf(a.rejectReason()), a.error());
              }
              failOnError(a);
              return a.value();
            });
  }

  @Override
  public CompletableFuture<Void> awaitCreated(int jobId) {
    return ask(id -> new MetaProtocol.AwaitCreated(id, jobId, answers))
        .thenApply(
            a -> {
              invalidate();
              failOnError(a);
              return null;
            });
  }

  @Override
  public CompletableFuture<Void> setBackfillRateLimit(int jobId, long rowsPerSecond) {
    return ask(id -> new MetaProtocol.SetBackfillRateLimit(id, jobId, rowsPerSecond, answers))
        .thenApply(
            a -> {
              invalidate();
              if (!a.rejectReason().isEmpty()) {
                throw new DdlRejectedException(
                    DdlReply.Rejected.Reason.valueOf(a.rejectReason()), a.error());
              }
              failOnError(a);
              return null;
            });
  }

  @Override
  public Map<Long, JobProgress> progress() {
    try {
      MetaProtocol.Answer a =
          ask(id -> new MetaProtocol.GetProgress(id, answers))
              .get(PROGRESS_TIMEOUT_MS, TimeUnit.MILLISECONDS);
      Map<Long, JobProgress> out = new HashMap<>();
      a.progress().forEach(p -> out.put(p.jobId(), p));
      return out;
    } catch (Exception e) {
      return Map.of(); // progress is advisory: SHOW JOBS shows 0 % rather than failing
    }
  }

  @Override
  public Optional<CatalogState> freshCatalog() {
    // a load of its own: a cached one another thread started earlier may be older than what
    // the caller saw last
    return ifBootstrapped(CatalogLoader.load(reader));
  }

  @Override
  public long committedEpoch() {
    invalidate();
    return catalog()
        .flatMap(CatalogState::versionPointer)
        .map(p -> p.maxCommittedEpoch())
        .orElse(0L);
  }

  private static void failOnError(MetaProtocol.Answer a) {
    if (!a.error().isEmpty()) {
      throw new IllegalStateException(a.error());
    }
  }

  private CompletableFuture<MetaProtocol.Answer> ask(Function<Long, MetaProtocol.Request> request) {
    Optional<LeaderInfo> leader = registry.leader();
    if (leader.isEmpty()) {
      return CompletableFuture.failedFuture(
          new IllegalStateException("no meta leader is published in ZooKeeper"));
    }
    long id = nextRequest.getAndIncrement();
    CompletableFuture<MetaProtocol.Answer> f = new CompletableFuture<>();
    pending.put(id, f);
    ActorRef<MetaProtocol.Request> endpoint =
        ActorRefResolver.get(system)
            .resolveActorRef(leader.get().address() + "/system/" + MetaProtocol.ENDPOINT);
    endpoint.tell(request.apply(id));
    return f.orTimeout(60, TimeUnit.SECONDS).whenComplete((a, e) -> pending.remove(id));
  }
}
