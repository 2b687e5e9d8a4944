package dev.tideway.compute.executor;

import dev.tideway.barrier.executor.Executor;
import dev.tideway.barrier.executor.ExecutorInfo;
import dev.tideway.barrier.message.Barrier;
import dev.tideway.barrier.message.BarrierKind;
import dev.tideway.barrier.message.Message;
import dev.tideway.barrier.message.Watermark;
import dev.tideway.common.check.Checks;
import dev.tideway.common.chunk.ColumnBuilder;
import dev.tideway.common.chunk.LongVector;
import dev.tideway.common.chunk.Op;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.chunk.StreamChunkBuilder;
import dev.tideway.common.key.OrderType;
import dev.tideway.common.plan.StreamNode;
import dev.tideway.common.row.Row;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Field;
import dev.tideway.common.types.Schema;
import dev.tideway.common.types.Temporals;
import dev.tideway.common.vnode.VnodeHasher;
import dev.tideway.compute.expr.ExprCompiler;
import dev.tideway.storage.api.StateStore;
import dev.tideway.storage.table.StateTable;
import dev.tideway.storage.table.StateTables;
import java.time.LocalDateTime;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The global phase of a count over HOP windows kept per pane ({@link StreamNode.PaneHopAgg}):
 * partial counts per (group, pane) come in, one count per (group, pane) is kept, and the count of
 * every window holding a changed pane goes out, as a {@link HashAggExecutor} summing the partials
 * expanded to their windows would emit it, with {@code size / slide} times fewer state rows (each
 * of Nexmark q5's auction counts is kept once per 2 s pane instead of once per each of the five 10
 * s windows that pane lies in).
 *
 * <p>Per group, the cache holds the group's panes: each pane's count now and as of the last flush.
 * A flush (at a barrier, and within an epoch once {@code maxDirtyGroups} groups changed) writes
 * each changed pane's count to the state table and emits, for every window holding a changed pane,
 * its count as of the last flush and now, the sums over the window's panes: an insert for a window
 * that had none, else a {@code U-}/{@code U+} pair, never split over two chunks. Counts only grow:
 * the input must be append-only, with positive partials (the first phase of {@code count}), and
 * anything else fails the actor naming the row.
 *
 * <p>State: group columns, pane start (TIMESTAMP), count (BIGINT); pk = group columns, pane start;
 * distributed by the group columns. A group missing from the cache is loaded by one prefix scan of
 * its panes, unless the {@link KeyFilter} of the groups written says it never was. The first
 * barrier drops the cache and rebuilds the filter from the table, so a rebuilt (recovered) executor
 * starts cold. The cache holds at most {@code cacheCapacity} groups after a flush, least recently
 * used evicted first.
 *
 * <p>Yielding: like {@link HashAggExecutor}, {@code next} returns an empty chunk after each input
 * chunk it only absorbed. Confined to the actor thread.
 */
public final class PaneHopAggExecutor implements Executor {
  /** Rows per output chunk at most (an update pair is never split). */
  static final int OUTPUT_CHUNK_ROWS = 1024;

  /** Changed groups that make the executor flush before the barrier by default. */
  public static final int DEFAULT_MAX_DIRTY_GROUPS = 1 << 14;

  private final ExecutorInfo info;
  private final Executor input;
  private final Schema schema;
  private final int[] groupKeys;
  private final int paneColumn;
  private final int partialColumn;
  private final long slideMicros;
  private final long sizeMicros;
  private final StateTable table;
  private final VnodeHasher groupVnode;
  private final int cacheCapacity;
  private final int filterBits;
  private final int maxDirtyGroups;
  private final StreamChunk yieldChunk;

  /** Groups by key, least recently used first. */
  private final LinkedHashMap<Row, Group> cache = new LinkedHashMap<>(16, 0.75f, true);

  /** Groups changed since the last flush, in first-change order. */
  private final List<Group> dirty = new ArrayList<>();

  private final ArrayDeque<Message> pending = new ArrayDeque<>();
  private KeyFilter filter;
  private boolean started;

  /** One group's panes: pane start (µs) to {count now, count as of the last flush}. */
  private static final class Group {
    final Row key;
    final TreeMap<Long, long[]> panes = new TreeMap<>();

    /** The panes changed since the last flush, sorted (a flush touches only them). */
    final TreeSet<Long> changed = new TreeSet<>();

    boolean dirty;

    Group(Row key) {
      this.key = key;
    }

    /** The sums over the panes in {@code [from, to)}: {count now, count as of the last flush}. */
    long[] sums(long from, long to) {
      long[] n = new long[2];
      for (long[] c : panes.subMap(from, to).values()) {
        n[0] += c[0];
        n[1] += c[1];
      }
      return n;
    }
  }

  public PaneHopAggExecutor(
      ExecutorInfo info,
      Executor input,
      StreamNode.PaneHopAgg plan,
      StateStore store,
      int cacheCapacity,
      int filterBits,
      int maxDirtyGroups) {
    Checks.checkArgument(
        cacheCapacity > 0, "%s: cache capacity must be > 0, got %s", info, cacheCapacity);
    Checks.checkArgument(
        maxDirtyGroups > 0, "%s: max dirty groups must be > 0, got %s", info, maxDirtyGroups);
    this.info = info;
    this.input = input;
    this.cacheCapacity = cacheCapacity;
    this.filterBits = filterBits;
    this.maxDirtyGroups = maxDirtyGroups;
    this.groupKeys = plan.groupKeys().stream().mapToInt(Integer::intValue).toArray();
    this.paneColumn = plan.paneColumn();
    this.partialColumn = plan.partialColumn();
    this.slideMicros = ExprCompiler.windowMicros(plan.slide());
    this.sizeMicros = ExprCompiler.windowMicros(plan.size());
    Schema in = input.schema();
    List<Field> out = new ArrayList<>();
    List<DataType> stateTypes = new ArrayList<>();
    for (int k : groupKeys) {
      out.add(in.field(k));
      stateTypes.add(in.type(k));
    }
    out.add(Field.of("window_start", DataType.TIMESTAMP));
    out.add(Field.of("window_end", DataType.TIMESTAMP));
    out.add(Field.of("count", DataType.BIGINT));
    this.schema = new Schema(out);
    plan.checkSchemas(List.of(in), schema);
    stateTypes.add(DataType.TIMESTAMP);
    stateTypes.add(DataType.BIGINT);
    int[] pk = new int[groupKeys.length + 1];
    int[] dist = new int[groupKeys.length];
    for (int k = 0; k < pk.length; k++) {
      pk[k] = k;
    }
    for (int k = 0; k < dist.length; k++) {
      dist[k] = k;
    }
    this.table =
        StateTables.open(
            store,
            plan.table().tableId(),
            stateTypes,
            pk,
            Collections.nCopies(pk.length, OrderType.ASC),
            dist);
    this.groupVnode = new VnodeHasher(stateTypes.subList(0, groupKeys.length), dist);
    this.yieldChunk = new StreamChunkBuilder(schema.types(), 0).build();
  }

  @Override
  public Schema schema() {
    return schema;
  }

  @Override
  public ExecutorInfo info() {
    return info;
  }

  @Override
  public Message next() {
    if (!pending.isEmpty()) {
      return pending.poll();
    }
    while (true) {
      Message m = input.next();
      if (m == null) {
        return null;
      }
      if (m instanceof Message.Chunk c) {
        Checks.checkState(started, "%s: chunk before the first barrier", info);
        apply(c.chunk());
        if (dirty.size() >= maxDirtyGroups) {
          flush();
          evict();
          if (!pending.isEmpty()) {
            return pending.poll();
          }
        }
        return Message.of(yieldChunk);
      } else if (m instanceof Barrier b) {
        if (!started || b.kind() == BarrierKind.INITIAL) {
          init(b.curr());
          return b; // nothing may precede the first barrier
        }
        flush();
        table.commit(b.curr(), b.prev());
        evict();
        pending.add(b);
        return pending.poll();
      } else if (m instanceof Watermark) {
        continue;
      }
    }
  }

  private void init(long epoch) {
    cache.clear();
    dirty.clear();
    table.init(epoch);
    started = true;
    List<DataType> keyTypes = schema.types().subList(0, groupKeys.length);
    filter =
        KeyFilter.exact(keyTypes) ? KeyFilter.ofTable(table, filterBits, groupKeys.length) : null;
  }

  private void apply(StreamChunk chunk) {
    LongVector pane = (LongVector) chunk.column(paneColumn);
    LongVector partial = (LongVector) chunk.column(partialColumn);
    for (int i = 0; i < chunk.size(); i++) {
      if (!chunk.isVisible(i)) {
        continue;
      }
      if (chunk.op(i) == Op.INSERT && pane.isNull(i)) {
        continue; // a NULL time lies in no window (HOP drops the row), nor does its pane
      }
      if (chunk.op(i) != Op.INSERT || partial.isNull(i)) {
        Checks.checkState(
            false,
            "%s: a pane count takes inserts of a pane and a partial count, got %s %s",
            info,
            chunk.op(i),
            chunk.row(i));
      }
      long p = pane.getLong(i);
      long n = partial.getLong(i);
      if (n <= 0 || Math.floorMod(p, slideMicros) != 0) {
        Checks.checkState(
            false,
            "%s: a partial count must be positive and its pane start a multiple of the slide,"
                + " got %s",
            info,
            chunk.row(i));
      }
      Object[] key = new Object[groupKeys.length];
      for (int k = 0; k < key.length; k++) {
        key[k] = chunk.column(groupKeys[k]).get(i);
      }
      Group g = group(Row.wrap(key));
      g.panes.computeIfAbsent(p, x -> new long[2])[0] += n;
      g.changed.add(p);
      if (!g.dirty) {
        g.dirty = true;
        dirty.add(g);
      }
    }
  }

  private Group group(Row key) {
    Group g = cache.get(key);
    if (g != null) {
      return g;
    }
    g = new Group(key);
    if (filter == null || filter.mayContain(key)) {
      try (StateTable.CloseableRows rows = table.iter(groupVnode.vnode(key), key)) {
        while (rows.hasNext()) {
          Row r = rows.next();
          long p = Temporals.timestampToMicros((LocalDateTime) r.get(groupKeys.length));
          long n = (Long) r.get(groupKeys.length + 1);
          g.panes.put(p, new long[] {n, n});
        }
      }
    }
    cache.put(key, g);
    return g;
  }

  /**
   * Writes the changed panes and queues, per changed group, the changes of the windows holding them
   * (see the class comment).
   */
  private void flush() {
    StreamChunkBuilder out = new StreamChunkBuilder(schema.types(), OUTPUT_CHUNK_ROWS);
    for (Group g : dirty) {
      g.dirty = false;
      TreeSet<Long> windows = new TreeSet<>();
      for (long p : g.changed) {
        for (long ws = p - sizeMicros + slideMicros; ws <= p; ws += slideMicros) {
          windows.add(ws);
        }
      }
      for (long ws : windows) {
        long[] sums = g.sums(ws, ws + sizeMicros);
        long now = sums[0];
        long before = sums[1];
        if (out.size() >= OUTPUT_CHUNK_ROWS - 1) {
          pending.add(Message.of(out.build()));
          out = new StreamChunkBuilder(schema.types(), OUTPUT_CHUNK_ROWS);
        }
        if (before == 0) {
          append(out, Op.INSERT, g.key, ws, now);
        } else {
          append(out, Op.UPDATE_DELETE, g.key, ws, before);
          append(out, Op.UPDATE_INSERT, g.key, ws, now);
        }
      }
      for (long p : g.changed) {
        long[] c = g.panes.get(p);
        Row state = g.key.concat(Row.of(Temporals.microsToTimestamp(p), c[0]));
        if (c[1] == 0) {
          table.insert(state);
        } else {
          table.update(state, state); // same pk: the old row is not read
        }
        c[1] = c[0];
      }
      g.changed.clear();
      if (filter != null) {
        filter.add(g.key);
      }
    }
    dirty.clear();
    if (out.size() > 0) {
      pending.add(Message.of(out.build()));
    }
  }

  private void append(StreamChunkBuilder out, Op op, Row key, long ws, long count) {
    for (int k = 0; k < groupKeys.length; k++) {
      out.column(k).append(key.get(k));
    }
    ColumnBuilder start = out.column(groupKeys.length);
    start.appendLong(ws);
    out.column(groupKeys.length + 1).appendLong(ws + sizeMicros);
    out.column(groupKeys.length + 2).appendLong(count);
    out.appendOp(op);
  }

  /** Trims the cache to its capacity, least recently used groups first (none is dirty here). */
  private void evict() {
    Iterator<Group> it = cache.values().iterator();
    while (cache.size() > cacheCapacity && it.hasNext()) {
      it.next();
      it.remove();
    }
  }
}
