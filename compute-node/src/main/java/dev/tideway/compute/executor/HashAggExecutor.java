package dev.tideway.compute.executor;

import dev.tideway.barrier.executor.Executor;
import dev.tideway.barrier.executor.ExecutorInfo;
import dev.tideway.barrier.message.Barrier;
import dev.tideway.barrier.message.BarrierKind;
import dev.tideway.barrier.message.Message;
import dev.tideway.barrier.message.Watermark;
import dev.tideway.common.check.Checks;
import dev.tideway.common.chunk.LongVector;
import dev.tideway.common.chunk.Op;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.chunk.StreamChunkBuilder;
import dev.tideway.common.key.OrderType;
import dev.tideway.common.plan.AggCall;
import dev.tideway.common.plan.AggKind;
import dev.tideway.common.plan.StreamNode;
import dev.tideway.common.plan.TableDesc;
import dev.tideway.common.row.Row;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Field;
import dev.tideway.common.types.Schema;
import dev.tideway.common.vnode.VnodeHasher;
import dev.tideway.storage.api.StateStore;
import dev.tideway.storage.table.StateTable;
import dev.tideway.storage.table.StateTables;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Grouped aggregation (count, count(*), sum, min, max, avg) over a retractable input, emitting its
 * changes on barriers.
 *
 * <p>Overview. Each visible input row updates its group's {@link AggGroup} (row count, one
 * accumulator per call). MIN and MAX with a call state table in the plan also keep the multiset of
 * their input values there ({@code group key, value → multiplicity}, the value ordered ASC for MIN
 * and DESC for MAX), so when the current extreme is deleted the next barrier re-reads the first
 * value of the group's prefix; each cached group also caches the multiplicities it read or wrote,
 * and a {@link KeyFilter} makes the first insert of a value a blind write. A MIN/MAX without a call
 * table keeps its value in the intermediate row alone: the planner omits the table when no input
 * change can lower a MAX (raise a MIN), for an append-only input or an argument that only grows,
 * and a retraction that is not the first half of such an update pair fails the actor. On a barrier
 * every group changed since the last flush writes its state row to the intermediate state table and
 * emits the difference to what it emitted before: {@code +} for a new group, {@code -} for a group
 * whose rows are all gone, {@code U-}/{@code U+} for a changed result, in chunks of at most {@link
 * #OUTPUT_CHUNK_ROWS} rows. Then the state tables seal the epoch and the barrier follows the
 * changes. The same flush also runs within an epoch, once {@code maxDirtyGroups} groups changed or
 * once {@code flushRows} rows changed few groups (see {@link #flushRows}), so a barrier waits for a
 * bounded flush and downstream works on the changes while this actor reads on.
 *
 * <p>State layouts (derived here; the plan's {@link TableDesc}s give the table ids):
 *
 * <pre>
 * intermediate: group keys…, row_count bigint, per call: count bigint | sum acc, non_null bigint
 *               (SUM, AVG) | current value (MIN, MAX);   pk = group keys, distributed by them
 * call i (MIN/MAX, retractable): group keys…, value, multiplicity bigint;   pk = group keys, value
 * </pre>
 *
 * <p>Cache: groups live in an LRU map of at most {@code cacheCapacity} groups between epochs; a
 * group not in it is loaded from the intermediate table (no read for a group the key filter never
 * saw). During an epoch the groups changed in it are all kept (they are flushed at the barrier), so
 * the bound holds at barriers. The first barrier drops every cached group and rebuilds the filters
 * from the tables, so a rebuilt (recovered) executor starts cold.
 *
 * <p>Yielding: after each input chunk {@code next} returns an empty chunk instead of pulling on
 * until the barrier. A parent with two inputs ({@link HashJoinExecutor}) so gets control back and
 * pulls its other input in between; otherwise, with both inputs fed by one upstream through bounded
 * channels, the other input's channel fills while this executor drains a whole epoch, the upstream
 * blocks on it, and this input never sees its barrier.
 *
 * <p>A global aggregation (no group keys) has one group that always exists: it emits its first row
 * on the first barrier (count 0, other results NULL), as SQL's {@code SELECT count(*) FROM t}
 * returns one row for an empty table.
 *
 * <p>Confined to the actor thread.
 */
public final class HashAggExecutor implements Executor {
  private final ExecutorInfo info;
  private final Executor input;
  private final Schema schema;
  private final int[] groupKeys;
  private final List<AggCall> calls;
  private final DataType[] argTypes;
  private final DataType[] accTypes;
  private final StateTable intermediate;
  private final StateTable[] callTables;
  private final VnodeHasher groupVnode;

  /** Per group key column: decoded values of its recent raw values. */
  private final ValueMemo[] keyMemos;

  private final int cacheCapacity;
  private final int filterBits;

  /**
   * Flushing before the barrier. Flushing only at barriers makes every barrier wait for the epoch's
   * whole flush (state writes, and the downstream work on the changes), which grows with the epoch:
   * the first epoch of a job over a backlog absorbs input at the sources' speed, and q5's took 3-4
   * s. But a group changed again after a flush writes and emits again, and the partials of one
   * group reach a global aggregation from every upstream actor, far apart when one runs ahead, so
   * flushes that cost writes are rare: the executor flushes once {@code maxDirtyGroups} groups
   * changed (a bound on the barrier's work), or once {@code flushRows} rows came if they changed at
   * most one group per {@value #CHEAP_FLUSH_ROWS_PER_GROUP} rows (an aggregation of few groups, as
   * q5's max per window, then passes its changes on within the epoch for next to nothing).
   */
  private final int flushRows;

  private final int maxDirtyGroups;

  /** Input rows per changed group at or above which an early flush counts as cheap. */
  static final int CHEAP_FLUSH_ROWS_PER_GROUP = 16;

  /** Visible input rows applied since the last flush. */
  private int unflushedRows;

  /**
   * Groups written to the intermediate table (see {@link KeyFilter}); built on the first barrier;
   * null when the group key types do not allow one (then every new group reads the table).
   */
  private KeyFilter groupFilter;

  /**
   * Per MIN/MAX call: (group key, value) pks written to its call table; null for other calls and
   * for types that allow neither a filter nor a value cache.
   */
  private final KeyFilter[] valueFilters;

  /** Recently used groups, least recent first. */
  private final LinkedHashMap<Row, AggGroup> cache = new LinkedHashMap<>(16, 0.75f, true);

  /**
   * The cached groups found by raw key values in this epoch: a cache of {@link #cache} lookups,
   * cleared at every barrier (where groups leave the cache), so it never names an evicted group.
   */
  private final RawKeyIndex<AggGroup> rawGroups;

  /** Groups changed in the current epoch, in first-change order (flushed on the barrier). */
  private final List<AggGroup> dirty = new ArrayList<>();

  private boolean started;

  /** Whether some MIN/MAX call keeps value multiplicities in cached groups (see {@link #evict}). */
  private boolean hasValueCaches;

  /** Whether some call is a SUM or AVG (groups then count non-NULL inputs per call). */
  private final boolean hasSumLike;

  /** Whether some MIN/MAX call has a call table (groups then track stale extremes). */
  private final boolean hasCallTables;

  /** The empty chunk returned after each input chunk (see the class comment). */
  private final StreamChunk yieldChunk;

  /**
   * Messages to return before reading input again: a barrier's changes in chunks of at most {@link
   * #OUTPUT_CHUNK_ROWS} rows, then the barrier (after the first barrier, its changes follow it:
   * nothing may precede the first barrier).
   */
  private final ArrayDeque<Message> pending = new ArrayDeque<>();

  public HashAggExecutor(
      ExecutorInfo info,
      Executor input,
      StreamNode.HashAgg plan,
      StateStore store,
      int cacheCapacity) {
    this(info, input, plan, store, cacheCapacity, DEFAULT_FILTER_BITS);
  }

  /** Bits of each key filter by default: 2^22 (512 KiB). */
  public static final int DEFAULT_FILTER_BITS = 22;

  /**
   * Rows per output chunk at a barrier. An epoch can change hundreds of thousands of groups; one
   * chunk of them all would be a set of multi-megabyte arrays (allocated outside G1's young
   * generation) that every downstream executor copies whole before the barrier can pass.
   */
  static final int OUTPUT_CHUNK_ROWS = 1024;

  /** MIN/MAX value multiplicities all cached groups keep across a barrier. */
  static final int VALUE_CACHE_UNITS = 1 << 20;

  /**
   * Input rows after which a cheap flush comes before the barrier by default (see {@link
   * #flushRows}).
   */
  public static final int DEFAULT_FLUSH_ROWS = 1 << 14;

  /** Changed groups that make the executor flush before the barrier by default. */
  public static final int DEFAULT_MAX_DIRTY_GROUPS = 1 << 16;

  /**
   * An aggregation caching up to {@code cacheCapacity} groups between epochs, with key filters of
   * {@code 2^filterBits} bits over the intermediate and call tables.
   */
  public HashAggExecutor(
      ExecutorInfo info,
      Executor input,
      StreamNode.HashAgg plan,
      StateStore store,
      int cacheCapacity,
      int filterBits) {
    this(
        info,
        input,
        plan,
        store,
        cacheCapacity,
        filterBits,
        DEFAULT_FLUSH_ROWS,
        DEFAULT_MAX_DIRTY_GROUPS);
  }

  /**
   * The same, flushing before the barrier once {@code maxDirtyGroups} groups changed, or once
   * {@code flushRows} input rows came that changed few groups (see {@link #flushRows}).
   */
  public HashAggExecutor(
      ExecutorInfo info,
      Executor input,
      StreamNode.HashAgg plan,
      StateStore store,
      int cacheCapacity,
      int filterBits,
      int flushRows,
      int maxDirtyGroups) {
    Checks.checkArgument(
        cacheCapacity > 0, "%s: agg cache capacity must be > 0, got %s", info, cacheCapacity);
    Checks.checkArgument(flushRows > 0, "%s: flush rows must be > 0, got %s", info, flushRows);
    Checks.checkArgument(
        maxDirtyGroups > 0, "%s: max dirty groups must be > 0, got %s", info, maxDirtyGroups);
    this.flushRows = flushRows;
    this.maxDirtyGroups = maxDirtyGroups;
    this.info = info;
    this.input = input;
    this.cacheCapacity = cacheCapacity;
    this.filterBits = filterBits;
    Schema in = input.schema();
    this.groupKeys = plan.groupKeys().stream().mapToInt(Integer::intValue).toArray();
    this.rawGroups = new RawKeyIndex<>(groupKeys.length);
    this.keyMemos = new ValueMemo[groupKeys.length];
    for (int k = 0; k < groupKeys.length; k++) {
      keyMemos[k] = new ValueMemo();
    }
    this.calls = plan.aggCalls();
    this.argTypes = new DataType[calls.size()];
    this.accTypes = new DataType[calls.size()];
    this.callTables = new StateTable[calls.size()];
    this.valueFilters = new KeyFilter[calls.size()];
    List<Field> out = new ArrayList<>();
    List<DataType> keyTypes = new ArrayList<>();
    for (int k : groupKeys) {
      out.add(in.field(k));
      keyTypes.add(in.type(k));
    }
    List<DataType> stateTypes = new ArrayList<>(keyTypes);
    stateTypes.add(DataType.BIGINT);
    for (int i = 0; i < calls.size(); i++) {
      AggCall c = calls.get(i);
      argTypes[i] = c.args().isEmpty() ? null : in.type(c.args().get(0).index());
      AggCalls.checkSupported(c, argTypes[i]);
      accTypes[i] = AggCalls.accumulatorType(c, argTypes[i]);
      out.add(Field.of(c.kind().name().toLowerCase() + "_" + i, c.returnType()));
      stateTypes.addAll(callStateTypes(c, i));
      TableDesc t = plan.callStateTables().get(i);
      if (AggCalls.isExtreme(c.kind()) && t != null) {
        callTables[i] = openCallTable(store, t.tableId(), keyTypes, c.kind(), argTypes[i]);
      }
    }
    this.hasSumLike = calls.stream().anyMatch(c -> AggCalls.isSumLike(c.kind()));
    this.hasCallTables = java.util.Arrays.stream(callTables).anyMatch(t -> t != null);
    this.schema = new Schema(out);
    this.yieldChunk = new StreamChunkBuilder(schema.types(), 1).build();
    int[] keyPos = range(groupKeys.length);
    this.intermediate =
        StateTables.open(
            store,
            plan.intermediateStateTable().tableId(),
            stateTypes,
            keyPos,
            Collections.nCopies(keyPos.length, OrderType.ASC),
            keyPos);
    this.groupVnode = new VnodeHasher(keyTypes, keyPos);
  }

  private List<DataType> callStateTypes(AggCall c, int i) {
    if (AggCalls.isCount(c.kind())) {
      return List.of(DataType.BIGINT);
    }
    if (AggCalls.isSumLike(c.kind())) {
      return List.of(accTypes[i], DataType.BIGINT);
    }
    return List.of(argTypes[i]);
  }

  private static StateTable openCallTable(
      StateStore store, int tableId, List<DataType> keyTypes, AggKind kind, DataType valueType) {
    List<DataType> types = new ArrayList<>(keyTypes);
    types.add(valueType);
    types.add(DataType.BIGINT);
    int[] pk = range(keyTypes.size() + 1);
    List<OrderType> orders = new ArrayList<>(Collections.nCopies(keyTypes.size(), OrderType.ASC));
    orders.add(kind == AggKind.MIN ? OrderType.ASC : OrderType.DESC);
    return StateTables.open(store, tableId, types, pk, orders, range(keyTypes.size()));
  }

  private static int[] range(int n) {
    int[] r = new int[n];
    for (int i = 0; i < n; i++) {
      r[i] = i;
    }
    return r;
  }

  @Override
  public Schema schema() {
    return schema;
  }

  @Override
  public ExecutorInfo info() {
    return info;
  }

  /** Groups held in memory (for tests of the cache bound). */
  public int cachedGroups() {
    return cache.size();
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
        if (dirty.size() >= maxDirtyGroups
            || (unflushedRows >= flushRows
                && (long) dirty.size() * CHEAP_FLUSH_ROWS_PER_GROUP <= unflushedRows)) {
          // spread the epoch's flush over it: written state is read back like committed state,
          // and downstream gets the changes while this actor still reads (see the class comment)
          unflushedRows = 0;
          for (StreamChunk changes : flushDirty()) {
            pending.add(Message.of(changes));
          }
          evict();
          rawGroups.clear();
          if (!pending.isEmpty()) {
            return pending.poll();
          }
        }
        return Message.of(yieldChunk);
      } else if (m instanceof Barrier b) {
        boolean first = !started || b.kind() == BarrierKind.INITIAL;
        List<StreamChunk> changes = onBarrier(b);
        for (StreamChunk c : changes) {
          pending.add(Message.of(c));
        }
        if (first) {
          return b; // nothing may precede the first barrier
        }
        pending.add(b);
        return pending.poll();
      } else if (m instanceof Watermark) {
        continue; // results are not monotonic in any input column
      }
    }
  }

  /**
   * Reads only the group key and argument columns of each row. A row whose group keys are all
   * long-backed finds its group through {@link #rawGroups} by the raw values; otherwise (and on a
   * miss there) the key is built as a {@link Row} (values through {@link #keyMemos}).
   */
  private void apply(StreamChunk chunk) {
    LongVector[] raw = groupKeys.length == 0 ? null : RawKeyIndex.longColumns(chunk, groupKeys);
    for (int i = 0; i < chunk.size(); i++) {
      if (!chunk.isVisible(i)) {
        continue;
      }
      AggGroup g = null;
      int h = 0;
      boolean indexed = raw != null && !RawKeyIndex.anyNull(raw, i);
      if (indexed) {
        h = RawKeyIndex.hash(raw, i);
        g = rawGroups.get(raw, i, h);
      }
      if (g == null) {
        Object[] key = new Object[groupKeys.length];
        for (int k = 0; k < key.length; k++) {
          key[k] = keyMemos[k].get(chunk.column(groupKeys[k]), i);
        }
        g = group(Row.wrap(key));
        if (indexed) {
          rawGroups.put(raw, i, h, g);
        }
      } else if (!g.dirty) {
        g.dirty = true;
        dirty.add(g);
      }
      unflushedRows++;
      int sign = chunk.op(i).sign();
      g.rowCount += sign;
      Checks.checkState(
          g.rowCount >= 0, "%s: group %s has %s rows after a delete", info, g.key, g.rowCount);
      for (int c = 0; c < calls.size(); c++) {
        applyCall(g, c, chunk, i, sign);
      }
    }
  }

  private void applyCall(AggGroup g, int c, StreamChunk chunk, int i, int sign) {
    AggCall call = calls.get(c);
    if (call.kind() == AggKind.COUNT_STAR) {
      g.acc[c] = (Long) g.acc[c] + sign;
      return;
    }
    Object v = chunk.column(call.args().get(0).index()).get(i);
    if (v == null) {
      return; // every aggregate here ignores NULL inputs
    }
    switch (call.kind()) {
      case COUNT -> g.acc[c] = (Long) g.acc[c] + sign;
      case SUM, AVG -> {
        g.acc[c] = AggCalls.add(call, accTypes[c], g.acc[c], v, sign);
        g.nonNull[c] += sign;
        Checks.checkState(
            g.nonNull[c] >= 0, "%s: group %s call %s retracted more than added", info, g.key, c);
      }
      default -> {
        if (callTables[c] != null) {
          applyExtreme(g, c, v, sign);
        } else {
          applyValueOnlyExtreme(g, c, v, sign, chunk, i);
        }
      }
    }
  }

  /**
   * MIN/MAX without a call table: its value alone is the state, so the plan declared that no change
   * of its input can lower a MAX (raise a MIN): the input is append-only, or its argument only
   * grows (a count over an append-only input, as q5's max of per-auction counts). An insert folds
   * in; a retraction is accepted only as the first half of an update pair of the same group whose
   * new value is at least the old one (at most, for MIN), which cannot move the extreme but through
   * the new value; any other retraction fails the actor.
   */
  private void applyValueOnlyExtreme(
      AggGroup g, int c, Object v, int sign, StreamChunk chunk, int i) {
    AggKind kind = calls.get(c).kind();
    if (sign < 0) {
      Checks.checkState(
          monotoneUpdate(c, v, chunk, i),
          "%s: %s call %s has no value table (the plan declared that its input never lowers a"
              + " MAX or raises a MIN) but group %s retracts value %s without an update to a"
              + " value at least as %s",
          info,
          kind,
          c,
          g.key,
          v,
          kind == AggKind.MIN ? "low" : "high");
      return;
    }
    if (AggCalls.better(kind, argTypes[c], v, g.acc[c])) {
      g.acc[c] = v;
    }
  }

  /**
   * Whether row {@code i}, retracting {@code old}, is the {@code U-} of an update pair whose {@code
   * U+} keeps the group key and brings a value no worse for call {@code c}.
   */
  private boolean monotoneUpdate(int c, Object old, StreamChunk chunk, int i) {
    int n = i + 1;
    if (chunk.op(i) != Op.UPDATE_DELETE
        || n >= chunk.size()
        || chunk.op(n) != Op.UPDATE_INSERT
        || !chunk.isVisible(n)) {
      return false;
    }
    for (int k : groupKeys) {
      if (!Objects.equals(chunk.column(k).get(i), chunk.column(k).get(n))) {
        return false;
      }
    }
    Object next = chunk.column(calls.get(c).args().get(0).index()).get(n);
    return next != null && !AggCalls.better(calls.get(c).kind(), argTypes[c], old, next);
  }

  private void applyExtreme(AggGroup g, int c, Object v, int sign) {
    StateTable t = callTables[c];
    HashMap<Object, long[]> counts = g.valueCounts[c];
    if (counts == null && valueFilters[c] != null) {
      counts = new HashMap<>();
      g.valueCounts[c] = counts;
    }
    long[] cached = counts == null ? null : counts.get(v);
    Row pk = null;
    long count;
    if (cached != null) {
      count = cached[0];
    } else {
      pk = g.key.concat(Row.of(v));
      if (valueFilters[c] == null || valueFilters[c].mayContain(pk)) {
        Row old = t.get(pk);
        count = old == null ? 0 : (Long) old.get(old.size() - 1);
      } else {
        count = 0;
      }
      cached = new long[] {count};
      if (counts != null) {
        counts.put(v, cached);
      }
    }
    long next = count + sign;
    Checks.checkState(
        next >= 0,
        "%s: group %s deletes value %s of call %s that it does not hold",
        info,
        g.key,
        v,
        c);
    cached[0] = next;
    writeValueCount(c, g.key, v, count, next, pk);
    AggKind kind = calls.get(c).kind();
    if (sign > 0) {
      if (!g.stale[c] && AggCalls.better(kind, argTypes[c], v, g.acc[c])) {
        g.acc[c] = v;
      }
    } else if (next == 0
        && g.acc[c] != null
        && dev.tideway.common.types.Datums.compare(argTypes[c], v, g.acc[c]) == 0) {
      g.stale[c] = true;
    }
  }

  /** Writes the multiplicity change {@code count → next} of {@code v} to call {@code c}'s table. */
  private void writeValueCount(int c, Row key, Object v, long count, long next, Row pk) {
    StateTable t = callTables[c];
    Row base = pk != null ? pk : key.concat(Row.of(v));
    if (count == 0) {
      t.insert(base.concat(Row.of(next)));
      if (valueFilters[c] != null) {
        valueFilters[c].add(base);
      }
    } else if (next == 0) {
      t.delete(base.concat(Row.of(count)));
    } else {
      t.update(base.concat(Row.of(count)), base.concat(Row.of(next)));
    }
  }

  /** The group of {@code key}, from the cache, the state table, or new; marked dirty. */
  private AggGroup group(Row key) {
    AggGroup g = cache.get(key);
    if (g == null) {
      g = load(key);
      cache.put(key, g);
    }
    if (!g.dirty) {
      g.dirty = true;
      dirty.add(g);
    }
    return g;
  }

  private AggGroup load(Row key) {
    AggGroup g = new AggGroup(key, calls.size(), hasSumLike, hasCallTables);
    Row state = groupFilter == null || groupFilter.mayContain(key) ? intermediate.get(key) : null;
    if (state == null) {
      for (int c = 0; c < calls.size(); c++) {
        g.acc[c] = AggCalls.isCount(calls.get(c).kind()) ? 0L : null;
      }
      return g;
    }
    int p = groupKeys.length;
    g.rowCount = (Long) state.get(p++);
    for (int c = 0; c < calls.size(); c++) {
      AggKind k = calls.get(c).kind();
      g.acc[c] = state.get(p++);
      if (AggCalls.isSumLike(k)) {
        g.nonNull[c] = (Long) state.get(p++);
      }
    }
    g.stored = true;
    g.emitted = g.rowCount > 0 || groupKeys.length == 0 ? output(g) : null;
    return g;
  }

  private Row output(AggGroup g) {
    Object[] out = new Object[groupKeys.length + calls.size()];
    for (int k = 0; k < groupKeys.length; k++) {
      out[k] = g.key.get(k);
    }
    for (int c = 0; c < calls.size(); c++) {
      AggCall call = calls.get(c);
      Object v = g.acc[c];
      out[groupKeys.length + c] =
          AggCalls.isSumLike(call.kind()) ? AggCalls.result(call, v, g.nonNull[c]) : v;
    }
    return Row.wrap(out);
  }

  private Row stateRow(AggGroup g) {
    List<Object> s = new ArrayList<>(g.key.toList());
    s.add(g.rowCount);
    for (int c = 0; c < calls.size(); c++) {
      s.add(g.acc[c]);
      if (AggCalls.isSumLike(calls.get(c).kind())) {
        s.add(g.nonNull[c]);
      }
    }
    return Row.of(s);
  }

  /**
   * Flushes the epoch's changed groups; returns their output changes in chunks of at most {@link
   * #OUTPUT_CHUNK_ROWS} rows (an update's two rows stay in one chunk), none when nothing changed.
   */
  private List<StreamChunk> onBarrier(Barrier b) {
    if (!started || b.kind() == BarrierKind.INITIAL) {
      initTables(b.curr());
      started = true;
      if (groupKeys.length == 0) {
        group(Row.EMPTY); // the global group exists from the start
      }
    }
    List<StreamChunk> chunks = flushDirty();
    unflushedRows = 0;
    if (b.kind() != BarrierKind.INITIAL && intermediate.epoch() != b.curr()) {
      commitTables(b);
    }
    evict();
    rawGroups.clear();
    return chunks;
  }

  /**
   * Writes every group changed since the last flush to the state tables and returns their changes,
   * in chunks of at most {@link #OUTPUT_CHUNK_ROWS} rows (an update pair never split).
   */
  private List<StreamChunk> flushDirty() {
    List<StreamChunk> chunks = new ArrayList<>();
    int rows = Math.min(OUTPUT_CHUNK_ROWS, dirty.size() * 2);
    StreamChunkBuilder out = new StreamChunkBuilder(schema.types(), rows);
    for (AggGroup g : dirty) {
      g.dirty = false;
      flush(g, out);
      if (out.size() >= OUTPUT_CHUNK_ROWS - 1) {
        chunks.add(out.build());
        out = new StreamChunkBuilder(schema.types(), rows);
      }
    }
    dirty.clear();
    if (out.size() > 0) {
      chunks.add(out.build());
    }
    return chunks;
  }

  private void flush(AggGroup g, StreamChunkBuilder out) {
    for (int c = 0; g.stale != null && c < calls.size(); c++) {
      if (g.stale[c]) {
        g.acc[c] = firstValue(c, g.key);
        g.stale[c] = false;
      }
    }
    boolean exists = g.rowCount > 0 || groupKeys.length == 0;
    Row now = exists ? output(g) : null;
    if (g.emitted == null && now != null) {
      out.append(Op.INSERT, now);
    } else if (g.emitted != null && now == null) {
      out.append(Op.DELETE, g.emitted);
    } else if (g.emitted != null && !g.emitted.equals(now)) {
      out.append(Op.UPDATE_DELETE, g.emitted);
      out.append(Op.UPDATE_INSERT, now);
    }
    g.emitted = now;
    Row state = stateRow(g);
    if (!exists) {
      if (g.stored) {
        intermediate.delete(state); // only its pk is read
      }
      g.stored = false;
      cache.remove(g.key);
    } else if (g.stored) {
      intermediate.update(state, state); // same pk: the old row is not read
    } else {
      intermediate.insert(state);
      if (groupFilter != null) {
        groupFilter.add(g.key);
      }
      g.stored = true;
    }
    if (g.valueCounts != null) {
      for (HashMap<Object, long[]> counts : g.valueCounts) {
        if (counts != null) {
          counts.values().removeIf(n -> n[0] == 0);
        }
      }
    }
  }

  /** The MIN/MAX of call {@code c} in group {@code key}: the first value of its multiset. */
  private Object firstValue(int c, Row key) {
    try (StateTable.CloseableRows rows = callTables[c].iter(groupVnode.vnode(key), key)) {
      return rows.hasNext() ? rows.next().get(groupKeys.length) : null;
    }
  }

  /** Initialises the tables; drops every cached group and rebuilds the key filters from them. */
  private void initTables(long epoch) {
    cache.clear();
    rawGroups.clear();
    dirty.clear();
    intermediate.init(epoch);
    List<DataType> keyTypes = intermediateKeyTypes();
    groupFilter = KeyFilter.exact(keyTypes) ? filterOf(intermediate, groupKeys.length) : null;
    for (int c = 0; c < callTables.length; c++) {
      if (callTables[c] != null) {
        callTables[c].init(epoch);
        List<DataType> pkTypes = new ArrayList<>(keyTypes);
        pkTypes.add(argTypes[c]);
        valueFilters[c] =
            KeyFilter.exact(pkTypes) ? filterOf(callTables[c], groupKeys.length + 1) : null;
        hasValueCaches |= valueFilters[c] != null;
      }
    }
  }

  private List<DataType> intermediateKeyTypes() {
    return schema.types().subList(0, groupKeys.length);
  }

  private KeyFilter filterOf(StateTable t, int keyColumns) {
    return KeyFilter.ofTable(t, filterBits, keyColumns);
  }

  private void commitTables(Barrier b) {
    intermediate.commit(b.curr(), b.prev());
    for (StateTable t : callTables) {
      if (t != null) {
        t.commit(b.curr(), b.prev());
      }
    }
  }

  /** Trims the group cache to its capacity and the value caches to {@link #VALUE_CACHE_UNITS}. */
  private void evict() {
    Iterator<Map.Entry<Row, AggGroup>> it = cache.entrySet().iterator();
    while (cache.size() > cacheCapacity && it.hasNext()) {
      it.next();
      it.remove();
    }
    if (!hasValueCaches) {
      return;
    }
    long values = 0;
    for (AggGroup g : cache.values()) {
      values += g.valueUnits();
    }
    for (AggGroup g : cache.values()) {
      if (values <= VALUE_CACHE_UNITS) {
        break;
      }
      values -= g.valueUnits();
      g.dropValueCounts(); // least recently used first; the filter and the table still answer
    }
  }
}
