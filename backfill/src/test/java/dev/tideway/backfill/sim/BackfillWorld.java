package dev.tideway.backfill.sim;

import dev.tideway.backfill.Backfills;
import dev.tideway.backfill.core.BackfillOptions;
import dev.tideway.backfill.state.BackfillStateTable;
import dev.tideway.backfill.state.UpstreamTable;
import dev.tideway.backfill.state.VnodeProgress;
import dev.tideway.barrier.epoch.EpochPair;
import dev.tideway.barrier.executor.CheckedExecutor;
import dev.tideway.barrier.executor.Executor;
import dev.tideway.barrier.executor.ExecutorInfo;
import dev.tideway.barrier.message.Barrier;
import dev.tideway.barrier.message.BarrierKind;
import dev.tideway.barrier.message.Message;
import dev.tideway.barrier.message.Mutation;
import dev.tideway.barrier.progress.BackfillVnodes;
import dev.tideway.barrier.progress.CreateMviewProgressReporter;
import dev.tideway.common.chunk.Op;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.plan.BackfillKind;
import dev.tideway.common.plan.StreamNode;
import dev.tideway.common.plan.TableDesc;
import dev.tideway.common.random.RandomSource;
import dev.tideway.common.row.Row;
import dev.tideway.common.time.ManualClock;
import dev.tideway.storage.api.Epochs;
import dev.tideway.storage.api.StateStores;
import dev.tideway.storage.api.Storage;
import dev.tideway.storage.api.StorageOptions;
import dev.tideway.storage.api.SyncResult;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/**
 * A seeded, single-threaded world: one upstream table writer, backfill actors of one kind (each
 * owning some vnodes, fed through a hash-dispatch of the writer's chunks), an MV sink, and a commit
 * loop that syncs each checkpoint and commits it, sometimes one or two barriers late. After every
 * commit it checks the MV against the batch recomputation of the table at that epoch, restricted to
 * what the persisted backfill state says was emitted (exactly the whole table once finished), and
 * that committed progress reports never go backwards. {@link #kill()} is a recovery: every actor is
 * dropped, uncommitted state cleared, and everything rebuilt from the committed epoch.
 */
public final class BackfillWorld implements AutoCloseable {
  public static final int STATE_TABLE_ID = 20;
  public static final List<Integer> OUTPUT = List.of(2, 0); // (s, id): pk is output column 1

  /** A committed progress report of one actor. */
  public record Report(long epoch, byte code, long a, long rows) {}

  private final BackfillKind kind;
  private final RandomSource rnd;
  private final Storage storage;
  private final ManualClock clock = new ManualClock(1_700_000_000_000L);
  private final TableWriter writer;
  private final MvSink sink = new MvSink(1);
  private final TableDesc stateDesc;
  private final UpstreamTable upstreamView;
  private final BitSet[] actorVnodes;
  private final BackfillOptions options;
  private final List<Executor> actors = new ArrayList<>();
  private final List<Executor> raw = new ArrayList<>();
  private final List<TestUpstream> upstreams = new ArrayList<>();
  private final ArrayDeque<CompletableFuture<SyncResult>> syncs = new ArrayDeque<>();
  private final TreeMap<Long, List<Report>>[] uncommittedReports;
  private final List<List<Report>> committedReports = new ArrayList<>();
  private final Map<Integer, Long> restoredRows = new HashMap<>();
  private long t = 1;
  private long lastEpoch;
  private boolean jobCreated;
  private int kills;

  @SuppressWarnings("unchecked")
  public BackfillWorld(BackfillKind kind, long seed, int actorCount, BackfillOptions options) {
    this.kind = kind;
    this.rnd = RandomSource.seeded(seed);
    this.options = options;
    this.storage =
        StateStores.open(
            "memory://", StorageOptions.defaults().withCompaction(false, 4, 64L << 20, 64L << 20));
    storage.registerChangeLog(TableWriter.TABLE.tableId(), 0);
    this.writer = new TableWriter(storage);
    this.stateDesc = BackfillStateTable.layout(STATE_TABLE_ID, "bf", TableWriter.TABLE);
    this.upstreamView = new UpstreamTable(TableWriter.TABLE, OUTPUT);
    this.actorVnodes = new BitSet[actorCount];
    this.uncommittedReports = new TreeMap[actorCount];
    for (int a = 0; a < actorCount; a++) {
      actorVnodes[a] = new BitSet();
      uncommittedReports[a] = new TreeMap<>();
      committedReports.add(new ArrayList<>());
    }
    for (int v = 0; v < 256; v++) { // odd seeds: contiguous vnode blocks (long cursor runs)
      actorVnodes[seed % 2 == 0 ? v % actorCount : v * actorCount / 256].set(v);
    }
  }

  public long seed() {
    return rnd.seed();
  }

  private long nextEpoch() {
    t += 1 + rnd.nextInt(3);
    return Epochs.of(t);
  }

  /** Creates the table with {@code rows} rows over a few committed epochs. */
  public void createTable(int rows) {
    long e = nextEpoch();
    writer.onBarrier(Barrier.of(new EpochPair(e, 0), BarrierKind.INITIAL), true);
    lastEpoch = e;
    int left = rows;
    while (left > 0) {
      int n = Math.min(left, 500);
      writer.inserts(n, rnd);
      left -= n;
      barrier(null, true);
    }
    commitAll();
  }

  /** Starts the backfill actors with an Add barrier. */
  public void createMv() {
    jobCreated = true;
    long e = nextEpoch();
    Barrier b =
        new Barrier(
            new EpochPair(e, lastEpoch),
            BarrierKind.CHECKPOINT,
            new Mutation.Add(actorIds(), Map.of(), Map.of(), false));
    buildActors();
    passBarrier(b);
  }

  private java.util.Set<Integer> actorIds() {
    java.util.Set<Integer> ids = new java.util.HashSet<>();
    for (int a = 0; a < actorVnodes.length; a++) {
      ids.add(100 + a);
    }
    return ids;
  }

  private void buildActors() {
    actors.clear();
    raw.clear();
    upstreams.clear();
    StreamNode.StreamScan scan =
        new StreamNode.StreamScan(TableWriter.TABLE.tableId(), OUTPUT, kind, stateDesc);
    for (int a = 0; a < actorVnodes.length; a++) {
      int actorId = 100 + a;
      int idx = a;
      TestUpstream up = new TestUpstream(actorId, TableWriter.TABLE.schema());
      CreateMviewProgressReporter reporter =
          new CreateMviewProgressReporter(
              actorId,
              (epoch, actor, code, x, rows) -> {
                if (code == BackfillVnodes.CODE) {
                  return; // not rows: the job page's vnodes done
                }
                uncommittedReports[idx]
                    .computeIfAbsent(epoch.prev(), k -> new ArrayList<>())
                    .add(new Report(epoch.prev(), code, x, rows));
              });
      Executor ex =
          Backfills.create(
              new Backfills.Args(
                  scan,
                  TableWriter.TABLE,
                  up,
                  storage,
                  actorVnodes[a],
                  new ExecutorInfo(actorId, 2, "StreamScan"),
                  reporter,
                  clock,
                  options));
      raw.add(ex);
      actors.add(CheckedExecutor.wrap(ex));
      upstreams.add(up);
    }
  }

  /** One epoch of upstream churn ({@code changes} rows) then a barrier. */
  public void epoch(int changes, Mutation mutation) {
    int chunks = 1 + rnd.nextInt(3);
    for (int c = 0; c < chunks; c++) {
      StreamChunk chunk = writer.randomChanges(Math.max(1, changes / chunks), rnd);
      dispatch(chunk);
      for (TestUpstream up : upstreams) {
        up.gaps(rnd.nextInt(4));
      }
    }
    boolean checkpoint = mutation != null || rnd.chance(0.7);
    barrier(mutation, checkpoint);
    clock.advanceMillis(100);
  }

  private void dispatch(StreamChunk chunk) {
    if (!jobCreated) {
      return;
    }
    for (int a = 0; a < upstreams.size(); a++) {
      StreamChunk part = onlyVnodes(chunk, actorVnodes[a]);
      if (part != null) {
        upstreams.get(a).push(Message.of(part));
      }
    }
  }

  /** A hash dispatcher's view: rows of other vnodes hidden, orphaned update halves made plain. */
  private StreamChunk onlyVnodes(StreamChunk chunk, BitSet vnodes) {
    boolean[] vis = new boolean[chunk.size()];
    byte[] ops = new byte[chunk.size()];
    boolean any = false;
    for (int i = 0; i < chunk.size(); i++) {
      vis[i] = chunk.isVisible(i) && vnodes.get(upstreamView.vnode(chunk, i));
      ops[i] = chunk.opCode(i);
      any |= vis[i];
    }
    for (int i = 0; i + 1 < chunk.size(); i++) {
      if (chunk.op(i) == Op.UPDATE_DELETE && vis[i] != vis[i + 1]) {
        ops[vis[i] ? i : i + 1] = (vis[i] ? Op.DELETE : Op.INSERT).code();
      }
    }
    return any ? chunk.withVisibility(vis).withOps(ops) : null;
  }

  private void barrier(Mutation mutation, boolean checkpoint) {
    long e = nextEpoch();
    BarrierKind k = checkpoint ? BarrierKind.CHECKPOINT : BarrierKind.BARRIER;
    passBarrier(new Barrier(new EpochPair(e, lastEpoch), k, mutation));
  }

  private void passBarrier(Barrier b) {
    writer.onBarrier(b, false);
    for (int a = 0; a < actors.size(); a++) {
      upstreams.get(a).push(b);
      Executor ex = actors.get(a);
      while (true) {
        Message m = ex.next();
        if (m == null) {
          throw new AssertionError("actor " + (100 + a) + " ended before barrier " + b);
        }
        sink.onMessage(m, lastEpoch);
        if (m instanceof Barrier) {
          break;
        }
      }
    }
    lastEpoch = b.curr();
    if (b.isCheckpoint()) {
      syncs.add(storage.sync(b.prev()));
    }
    while (syncs.size() > 2 || (!syncs.isEmpty() && rnd.chance(0.6))) {
      commit(syncs.poll().join());
    }
  }

  public void commitAll() {
    while (!syncs.isEmpty()) {
      commit(syncs.poll().join());
    }
  }

  private void commit(SyncResult r) {
    storage.commitEpoch(r.epoch(), r.ssts(), r.statsDelta());
    sink.commit(r.epoch());
    for (int a = 0; a < actorVnodes.length; a++) {
      var head = uncommittedReports[a].headMap(r.epoch(), true);
      for (List<Report> l : head.values()) {
        for (Report rep : l) {
          List<Report> done = committedReports.get(a);
          if (!done.isEmpty() && rep.rows() < done.get(done.size() - 1).rows()) {
            throw new AssertionError(
                "seed " + seed() + ": actor " + (100 + a) + " progress went back: " + rep);
          }
          done.add(rep);
        }
      }
      head.clear();
    }
    if (jobCreated) {
      checkMv(r.epoch());
    }
  }

  /** The MV equals what the persisted state says the backfill emitted of the table. */
  private void checkMv(long epoch) {
    Map<Integer, BackfillStateTable.Persisted> state =
        BackfillStateTable.readCommitted(storage, stateDesc, upstreamView, epoch);
    Map<Long, BitSet> bySource = new TreeMap<>();
    state.forEach(
        (v, p) -> bySource.computeIfAbsent(sourceEpoch(p, epoch), k -> new BitSet()).set(v));
    TreeMap<Long, Row> expected = new TreeMap<>();
    bySource.forEach(
        (source, vnodes) -> {
          for (Map.Entry<Long, Row> e : writer.at(source).entrySet()) {
            int v = vnodeOf(e.getValue());
            if (vnodes.get(v) && emitted(state.get(v), e.getValue())) {
              expected.put(e.getKey(), upstreamView.project(e.getValue()));
            }
          }
        });
    if (!expected.equals(sink.committed())) {
      TreeMap<Long, Row> missing = new TreeMap<>(expected);
      sink.committed().keySet().forEach(missing::remove);
      TreeMap<Long, Row> extra = new TreeMap<>(sink.committed());
      expected.keySet().forEach(extra::remove);
      throw new AssertionError(
          "seed "
              + seed()
              + " kind "
              + kind
              + " epoch "
              + epoch
              + ": MV differs, expected "
              + expected.size()
              + " rows, got "
              + sink.committed().size()
              + "; missing "
              + head(missing)
              + " extra "
              + head(extra));
    }
  }

  private static String head(TreeMap<Long, Row> m) {
    return m.size() <= 5
        ? m.toString()
        : m.headMap(m.keySet().stream().skip(5).findFirst().get()) + "...";
  }

  private final Map<Long, Integer> vnodeCache = new HashMap<>();

  private int vnodeOf(Row row) {
    return vnodeCache.computeIfAbsent(
        (Long) row.get(0),
        id -> {
          var b = new dev.tideway.common.chunk.StreamChunkBuilder(TableWriter.TABLE.types(), 1);
          b.append(Op.INSERT, row);
          return upstreamView.vnode(b.build(), 0);
        });
  }

  /** The upstream epoch whose table the MV reflects for a vnode, or null when nothing yet. */
  private Long sourceEpoch(BackfillStateTable.Persisted p, long epoch) {
    if (p == null) {
      return null;
    }
    if (kind != BackfillKind.SNAPSHOT || p.epoch() == BackfillStateTable.EPOCH_FOLLOWING) {
      return epoch;
    }
    return p.epoch();
  }

  private boolean emitted(BackfillStateTable.Persisted p, Row row) {
    if (p.progress() instanceof VnodeProgress.Completed) {
      return true;
    }
    VnodeProgress.InProgress ip = (VnodeProgress.InProgress) p.progress();
    return java.util.Arrays.compareUnsigned(upstreamView.pk(row), ip.pos()) <= 0;
  }

  /** Recovery: drop every actor and uncommitted state; rebuild from the committed epoch. */
  public void kill() {
    kills++;
    for (Executor ex : raw) {
      if (ex instanceof AutoCloseable c) {
        try {
          c.close();
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      }
    }
    for (CompletableFuture<SyncResult> f : syncs) {
      f.join();
    }
    syncs.clear();
    storage.clearUncommitted();
    long committed = storage.committedEpoch();
    writer.recover(committed);
    sink.dropUncommitted();
    for (TreeMap<Long, List<Report>> m : uncommittedReports) {
      m.clear();
    }
    Map<Integer, BackfillStateTable.Persisted> state =
        BackfillStateTable.readCommitted(storage, stateDesc, upstreamView, committed);
    for (int a = 0; a < actorVnodes.length; a++) {
      long rows = 0;
      for (int v : actorVnodes[a].stream().toArray()) {
        BackfillStateTable.Persisted p = state.get(v);
        rows += p == null ? 0 : p.progress().rows();
      }
      restoredRows.put(a, rows);
    }
    long e = nextEpoch();
    Barrier initial = Barrier.of(new EpochPair(e, committed), BarrierKind.INITIAL);
    writer.onBarrier(initial, true);
    buildActors();
    lastEpoch = committed;
    passBarrierAfterRecovery(initial);
  }

  private void passBarrierAfterRecovery(Barrier initial) {
    for (int a = 0; a < actors.size(); a++) {
      upstreams.get(a).push(initial);
      Message m = actors.get(a).next();
      if (!(m instanceof Barrier)) {
        throw new AssertionError("first message after recovery is " + m);
      }
      List<Report> first = uncommittedReports[a].firstEntry().getValue();
      long reported = first.get(first.size() - 1).rows();
      if (reported != restoredRows.get(a)) {
        throw new AssertionError(
            "seed "
                + seed()
                + ": actor "
                + (100 + a)
                + " restarted at "
                + reported
                + " rows but persisted "
                + restoredRows.get(a));
      }
    }
    lastEpoch = initial.curr();
  }

  /** Rows each actor reported right after its last recovery (its persisted count). */
  public Map<Integer, Long> restoredRows() {
    return restoredRows;
  }

  /** Committed reports per actor index. */
  public List<List<Report>> committedReports() {
    return committedReports;
  }

  /** True when every actor's committed state is finished (following, for the snapshot kind). */
  public boolean finished() {
    Map<Integer, BackfillStateTable.Persisted> state =
        BackfillStateTable.readCommitted(
            storage, stateDesc, upstreamView, storage.committedEpoch());
    for (int v = 0; v < 256; v++) {
      BackfillStateTable.Persisted p = state.get(v);
      if (p == null || !p.progress().isCompleted()) {
        return false;
      }
      if (kind == BackfillKind.SNAPSHOT && p.epoch() != BackfillStateTable.EPOCH_FOLLOWING) {
        return false;
      }
    }
    return true;
  }

  /** The MV and the table at the last committed epoch. */
  public Map<Long, Row> mv() {
    return sink.committed();
  }

  public Map<Long, Row> tableProjected() {
    TreeMap<Long, Row> out = new TreeMap<>();
    writer.at(storage.committedEpoch()).forEach((k, r) -> out.put(k, upstreamView.project(r)));
    return out;
  }

  public int kills() {
    return kills;
  }

  public Storage storage() {
    return storage;
  }

  @Override
  public void close() {
    for (Executor ex : raw) {
      if (ex instanceof AutoCloseable c) {
        try {
          c.close();
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      }
    }
    storage.close();
  }
}
