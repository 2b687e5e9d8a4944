package dev.tideway.meta.version;

import dev.tideway.barrier.control.BarrierCompleted;
import dev.tideway.barrier.control.InjectBarrier;
import dev.tideway.barrier.control.TableStatsDelta;
import dev.tideway.barrier.message.Barrier;
import dev.tideway.barrier.message.BarrierKind;
import dev.tideway.barrier.progress.ProgressBatch;
import dev.tideway.meta.barrier.ComputeClient;
import dev.tideway.protocol.catalog.CatalogState;
import dev.tideway.protocol.catalog.FragmentGraph;
import dev.tideway.storage.api.CompactionJob;
import dev.tideway.storage.api.CompactionOutcome;
import dev.tideway.storage.api.Keys;
import dev.tideway.storage.api.LocalStateStore;
import dev.tideway.storage.api.SstInfo;
import dev.tideway.storage.api.Storage;
import dev.tideway.storage.api.SyncResult;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * One in-process compute node over a real follower store: every barrier it writes {@code
 * rowsPerBarrier} new rows into each of its tables at the barrier's {@code prev} epoch and seals;
 * at a checkpoint it syncs and answers with the real SSTs and stats. Rows written before a reset's
 * committed epoch survive; uncommitted ones are dropped like a real node's. Called on the barrier
 * loop's thread; answers arrive from the store's sync thread.
 */
final class StorageCompute implements ComputeClient {
  private final Storage storage;
  private final java.util.function.Supplier<List<Integer>> tables;
  private final int rowsPerBarrier;
  private final Consumer<BarrierCompleted<SstInfo>> replyTo;

  /** Compaction tasks this node ran. */
  final java.util.concurrent.atomic.AtomicInteger compactions =
      new java.util.concurrent.atomic.AtomicInteger();

  /** Table id → its writer; a table leaves when {@link #tables} stops naming it (its Stop). */
  private final java.util.Map<Integer, LocalStateStore> locals = new java.util.TreeMap<>();

  private final java.util.Map<Integer, Long> nextPk = new java.util.HashMap<>();
  private long generation = -1;

  StorageCompute(
      Storage storage,
      int tableId,
      int rowsPerBarrier,
      Consumer<BarrierCompleted<SstInfo>> replyTo) {
    this(storage, () -> List.of(tableId), rowsPerBarrier, replyTo);
  }

  /** A node writing every table {@code tables} names at each barrier. */
  StorageCompute(
      Storage storage,
      java.util.function.Supplier<List<Integer>> tables,
      int rowsPerBarrier,
      Consumer<BarrierCompleted<SstInfo>> replyTo) {
    this.storage = storage;
    this.tables = tables;
    this.rowsPerBarrier = rowsPerBarrier;
    this.replyTo = replyTo;
  }

  static byte[] key(int tableId, long pk) {
    return Keys.key(tableId, (int) (pk % 256), ByteBuffer.allocate(8).putLong(pk).array());
  }

  @Override
  public synchronized void inject(InjectBarrier req) {
    if (req.generation() != generation) {
      return;
    }
    Barrier b = req.barrier();
    List<Integer> wanted = tables.get();
    locals.entrySet().removeIf(e -> !wanted.contains(e.getKey()) && close(e.getValue()));
    if (b.kind() != BarrierKind.INITIAL) {
      locals.forEach(
          (t, local) -> {
            for (int i = 0; i < rowsPerBarrier; i++) {
              long pk = nextPk.merge(t, 1L, Long::sum) - 1;
              local.insert(key(t, pk), ("row-" + pk).getBytes());
            }
            local.sealCurrentEpoch(b.curr());
          });
    }
    for (int t : wanted) {
      if (!locals.containsKey(t)) {
        LocalStateStore local = storage.newLocal(t);
        local.init(b.curr());
        locals.put(t, local);
      }
    }
    if (!b.isCheckpoint()) {
      replyTo.accept(answer(req, SyncResultOrEmpty.EMPTY));
      return;
    }
    storage.sync(b.prev()).thenAccept(r -> replyTo.accept(answer(req, new SyncResultOrEmpty(r))));
  }

  private static boolean close(LocalStateStore l) {
    l.close();
    return true;
  }

  private record SyncResultOrEmpty(SyncResult r) {
    static final SyncResultOrEmpty EMPTY = new SyncResultOrEmpty(null);
  }

  private static BarrierCompleted<SstInfo> answer(InjectBarrier req, SyncResultOrEmpty s) {
    List<SstInfo> ssts = s.r() == null ? List.of() : s.r().ssts();
    List<TableStatsDelta> deltas =
        s.r() == null
            ? List.of()
            : s.r().statsDelta().entrySet().stream()
                .map(
                    e ->
                        new TableStatsDelta(
                            e.getKey(),
                            e.getValue().totalKeyCount(),
                            e.getValue().liveRowCount(),
                            true))
                .toList();
    return new BarrierCompleted<>(
        req.nodeId(),
        req.generation(),
        req.barrier().epoch(),
        req.barrier().kind(),
        ssts,
        deltas,
        new ProgressBatch(1));
  }

  @Override
  public CompletableFuture<Void> build(FragmentGraph graph, CatalogState catalog) {
    return CompletableFuture.completedFuture(null);
  }

  @Override
  public synchronized void reset(long gen, long committedEpoch, CatalogState catalog) {
    generation = gen;
    locals.values().forEach(LocalStateStore::close);
    locals.clear();
    storage.clearUncommitted();
    storage.refresh(committedEpoch);
    // rows above the committed epoch are gone: continue numbering after what is committed
    nextPk.clear();
    for (int t : tables.get()) {
      long committedRows = 0;
      if (committedEpoch > 0) {
        try (var it = storage.iter(dev.tideway.storage.api.KeyRange.table(t), committedEpoch)) {
          while (it.next()) {
            committedRows++;
          }
        }
      }
      nextPk.put(t, committedRows);
    }
  }

  @Override
  public void drop(Set<Integer> actorIds) {}

  @Override
  public CompletableFuture<CompactionOutcome> compact(String node, CompactionJob job) {
    return storage
        .compact(job)
        .thenApply(
            r -> {
              compactions.incrementAndGet();
              return r;
            });
  }
}
