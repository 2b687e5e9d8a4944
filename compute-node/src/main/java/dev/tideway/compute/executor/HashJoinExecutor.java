package dev.tideway.compute.executor;

import static dev.tideway.compute.expr.ExprErrorSink.STRICT;

import dev.tideway.barrier.executor.Executor;
import dev.tideway.barrier.executor.ExecutorInfo;
import dev.tideway.barrier.message.Barrier;
import dev.tideway.barrier.message.BarrierKind;
import dev.tideway.barrier.message.Message;
import dev.tideway.common.check.Checks;
import dev.tideway.common.chunk.BoolVector;
import dev.tideway.common.chunk.Op;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.chunk.StreamChunkBuilder;
import dev.tideway.common.key.OrderType;
import dev.tideway.common.plan.JoinType;
import dev.tideway.common.plan.StreamNode;
import dev.tideway.common.plan.TableDesc;
import dev.tideway.common.row.Row;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Schema;
import dev.tideway.common.vnode.VnodeHasher;
import dev.tideway.compute.expr.ExprCompiler;
import dev.tideway.compute.expr.ExprErrorSink;
import dev.tideway.compute.expr.Expression;
import dev.tideway.compute.expr.Vectors;
import dev.tideway.storage.api.StateStore;
import dev.tideway.storage.table.StateTable;
import dev.tideway.storage.table.StateTables;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * Inner equi-join of two streams, with an optional extra condition over the joined row (the
 * non-equi parts of Nexmark q5 and q7). Output: the left columns, then the right columns.
 *
 * <p>Overview: a symmetric hash join. Each side keeps its rows in a state table keyed by (join key,
 * whole row) with a multiplicity column, distributed by the join key, so the rows matching a key
 * are one prefix scan of one vnode. A row arriving on one side first updates its own side's table,
 * then probes the other side's table and emits one joined row per match (times the match's
 * multiplicity) with its own op, as {@code +} or {@code -}: a pair's two halves may match different
 * rows, so updates are not kept as {@code U-}/{@code U+}. A row with a NULL join key matches
 * nothing and is not stored. The joined rows of one input chunk come out in chunks of at most
 * {@link #OUTPUT_CHUNK_ROWS} candidates (a change under a key with many rows, as q5's maximum of a
 * window, matches every row of the window); the condition is evaluated over each and hides the rows
 * it rejects, and a chunk left with no row is dropped.
 *
 * <p>Reads: each side caches whole join keys (every row under the key, loaded by one prefix scan on
 * a probe miss, LRU-trimmed to its capacity at barriers) and keeps a filter of the keys it wrote,
 * so a probe of a never-written key and a write of a cached or never-written key read nothing
 * ({@link JoinSideState}). The first barrier drops the caches and rebuilds the filters from the
 * tables, so a rebuilt (recovered) join starts cold.
 *
 * <p>Barriers: inputs are pulled alternately; once a side delivers its barrier, only the other is
 * pulled until it delivers the same epoch's; then both tables seal the epoch and the barrier is
 * emitted. The first barrier of each side initialises the tables. A null from one side makes the
 * join try the other; it returns null only when every side it may pull returned null in a row. In a
 * node its inputs are merges polling over the actor's shared doorbell, and the actor waits on that
 * doorbell when its chain returns null ({@link dev.tideway.compute.actor.StreamActor}), so an outer
 * join over an inner one still reads its other input while the inner one has nothing. Blocking
 * inputs are not enough when one upstream actor feeds both sides through bounded channels (a
 * self-join, or a table joined with an aggregate of itself): a join blocked on the quiet side would
 * let the busy side's channel fill, which blocks the upstream before it sends what the quiet side
 * waits for.
 *
 * <p>State layout per side (the plan's table descs give the table ids): the side's columns then
 * {@code multiplicity bigint}; pk = join key columns, then every column, all ascending. A side
 * whose table desc is {@code appendOnly} (its input only inserts) stores the side's columns then
 * {@code epoch bigint, sequence bigint}, pk = join key columns, epoch, sequence: every write is
 * blind and a delete fails the actor ({@link JoinSideState}). A side that may delete and whose
 * column {@code c} a conjunct of the condition bounds by a column of the other side ({@code c >=
 * other.d}, and {@code >, <=, <}) is sorted by {@code c} after the join key: pk = join key columns,
 * {@code c} (descending for an upper bound), then the other columns, so a probe reads the range
 * from {@code (key, bound)} on instead of the whole key ({@link SortedJoinSide}). Not when {@code
 * c} is a join key column, nor when the side's table desc says a key holds one row at most.
 *
 * <p>Pruning by a growing bound: when such a sorted side's rows match from the bound up ({@code c
 * >= other.d} or {@code >}), the plan says {@code other.d} only grows ({@link
 * StreamNode.HashJoin#growing}: rows never deleted, each change an adjacent {@code U-}/{@code U+}
 * pair to a value at least as high) and the other side's table desc holds one row per join key,
 * that row's value never falls, so a row below it can never match again. The side then keeps only
 * the rows at or above the value under their key: a row below it is neither stored nor probed
 * (insert or delete alike, as the side holds no such row), and when the value grows, the rows it
 * passed are deleted ({@link SortedJoinSide#dropBelow}). Nexmark q5's counts then keep, per window,
 * only those at or above the window's maximum count. A growing value that falls, a {@code U-} not
 * followed by its {@code U+} before the barrier, or a second row under one key fails the actor.
 *
 * <p>Confined to the actor thread.
 */
public final class HashJoinExecutor implements Executor {
  private final ExecutorInfo info;
  private final Side left;
  private final Side right;
  private final Schema schema;
  private final Expression condition;

  /** The condition's column-to-column comparisons, checked before a joined row is built. */
  private final JoinPrefilter prefilter;

  private boolean started;
  private int turn;

  /** Matches of the last input chunk not yet returned (bounded chunks of one input chunk). */
  private final ArrayDeque<Message> pending = new ArrayDeque<>();

  /**
   * Candidate rows per output chunk at most: a hot key's matches come out in pieces (all of an
   * input chunk's matches are still computed before the first piece is returned).
   */
  static final int OUTPUT_CHUNK_ROWS = 1024;

  /** One input, its side's state and the barrier it delivered, if any. */
  private static final class Side {
    final Executor input;
    final JoinSide state;
    Barrier barrier;

    /**
     * On a side whose rows a growing column of the other side bounds from below: that bound (this
     * side keeps only the rows at or above the other side's value under their key); else null.
     */
    JoinPrefilter.RangeBound pruned;

    /**
     * On the other side of a pruned one: the key and value of the row whose {@code U-} came last,
     * until its {@code U+} comes (its value still bounds the pruned side meanwhile); else null.
     */
    Row retractedKey;

    Object retractedValue;

    Side(Executor input, JoinSide state) {
      this.input = input;
      this.state = state;
    }
  }

  /** Keys plus rows each side caches by default (see {@link JoinSideState}). */
  public static final long DEFAULT_CACHE_UNITS = 1L << 18;

  /** Bits of each side's key filter by default: 2^24 (2 MiB). */
  public static final int DEFAULT_FILTER_BITS = 24;

  public HashJoinExecutor(
      ExecutorInfo info,
      Executor left,
      Executor right,
      StreamNode.HashJoin plan,
      StateStore store) {
    this(info, left, right, plan, store, DEFAULT_CACHE_UNITS, DEFAULT_FILTER_BITS, STRICT);
  }

  /**
   * A join whose sides each cache up to {@code cacheUnits} keys plus rows and keep a key filter of
   * {@code 2^filterBits} bits; a pair whose condition fails to evaluate does not match ({@code
   * errors} hears why).
   */
  public HashJoinExecutor(
      ExecutorInfo info,
      Executor left,
      Executor right,
      StreamNode.HashJoin plan,
      StateStore store,
      long cacheUnits,
      int filterBits,
      ExprErrorSink errors) {
    Checks.checkArgument(
        plan.joinType() == JoinType.INNER,
        "%s: only inner joins are supported, got %s",
        info,
        plan.joinType());
    plan.checkSchemas(List.of(left.schema(), right.schema()), left.schema().concat(right.schema()));
    this.info = info;
    int[] lk = plan.leftKeys().stream().mapToInt(Integer::intValue).toArray();
    int[] rk = plan.rightKeys().stream().mapToInt(Integer::intValue).toArray();
    this.prefilter = JoinPrefilter.of(plan.condition(), left.schema().size());
    JoinPrefilter.RangeBound lb = bound(prefilter, true);
    JoinPrefilter.RangeBound rb = bound(prefilter, false);
    this.left = side(left, lk, plan.leftTable(), store, cacheUnits, filterBits, lb);
    this.right = side(right, rk, plan.rightTable(), store, cacheUnits, filterBits, rb);
    int lw = left.schema().size();
    if (prunable(this.left, lb, plan.rightTable(), right.schema(), rk, plan.growing(), lw)) {
      this.left.pruned = lb;
    }
    if (prunable(this.right, rb, plan.leftTable(), left.schema(), lk, plan.growing(), 0)) {
      this.right.pruned = rb;
    }
    this.schema = left.schema().concat(right.schema());
    this.condition =
        plan.condition().map(c -> ExprCompiler.compile(c, schema.types(), errors)).orElse(null);
  }

  /**
   * Whether {@code self}'s rows may be pruned below {@code bound}: the side is sorted by the
   * bound's column ({@link SortedJoinSide}), its rows match from the bound up, and the bounding
   * column of the other side (at {@code otherOffset} in the joined row) is one the plan says only
   * grows, under a table desc that holds one row per join key there: each key's bound then never
   * falls, and a row below it can never match again.
   */
  private static boolean prunable(
      Side self,
      JoinPrefilter.RangeBound bound,
      TableDesc otherDesc,
      Schema other,
      int[] otherKeys,
      List<Integer> growing,
      int otherOffset) {
    return self.state instanceof SortedJoinSide
        && bound.above()
        && growing.contains(otherOffset + bound.otherColumn())
        && oneRowPerKey(otherDesc, other, otherKeys);
  }

  /** Whether {@code desc}, the state of a side over {@code input}, keeps one row per join key. */
  private static boolean oneRowPerKey(TableDesc desc, Schema input, int[] keys) {
    List<Integer> keyList = Arrays.stream(keys).boxed().toList();
    return desc.types().equals(input.types()) && keyList.containsAll(desc.pkIndices());
  }

  /** Whether {@code left} (or else the right side) keeps only rows that may still match. */
  boolean prunes(boolean left) {
    return (left ? this.left : this.right).pruned != null;
  }

  /** Keys plus rows both sides cache (for tests of the bound). */
  long cachedUnits() {
    return left.state.cachedUnits() + right.state.cachedUnits();
  }

  private static JoinPrefilter.RangeBound bound(JoinPrefilter prefilter, boolean left) {
    return prefilter == null ? null : prefilter.rangeBound(left);
  }

  private static Side side(
      Executor input,
      int[] keys,
      TableDesc desc,
      StateStore store,
      long cacheUnits,
      int bits,
      JoinPrefilter.RangeBound bound) {
    if (sortedByBound(desc, input.schema(), keys, bound)) {
      return new Side(input, sortedSide(input, keys, desc, store, cacheUnits, bits, bound));
    }
    int n = input.schema().size();
    List<DataType> types = new ArrayList<>(input.schema().types());
    int[] pk;
    if (desc.appendOnly()) {
      types.add(DataType.BIGINT); // epoch
      types.add(DataType.BIGINT); // sequence in the epoch
      pk = new int[keys.length + 2];
      System.arraycopy(keys, 0, pk, 0, keys.length);
      pk[keys.length] = n;
      pk[keys.length + 1] = n + 1;
    } else {
      types.add(DataType.BIGINT); // multiplicity
      pk = new int[keys.length + n];
      System.arraycopy(keys, 0, pk, 0, keys.length);
      for (int c = 0; c < n; c++) {
        pk[keys.length + c] = c;
      }
    }
    List<DataType> keyTypes = new ArrayList<>();
    int[] keyPos = new int[keys.length];
    for (int k = 0; k < keys.length; k++) {
      keyTypes.add(types.get(keys[k]));
      keyPos[k] = k;
    }
    int tableId = desc.tableId();
    StateTable t =
        StateTable.open(
            store,
            tableId,
            pk,
            StateTables.codecs(
                tableId, types, pk, Collections.nCopies(pk.length, OrderType.ASC), keys));
    VnodeHasher vnode = new VnodeHasher(keyTypes, keyPos);
    return new Side(
        input,
        new JoinSideState(
            t, keys, input.schema().types(), vnode, cacheUnits, bits, desc.appendOnly()));
  }

  /**
   * Whether a side is sorted by the column a range conjunct bounds ({@link SortedJoinSide}): its
   * input may delete, the bounded column is not a join key column, no join key column repeats, and
   * the table desc does not say that a join key holds one row at most (a desc describing the side's
   * rows whose pk, the planner's join key plus stream key, lies inside the join key: nothing to
   * range over).
   */
  private static boolean sortedByBound(
      TableDesc desc, Schema input, int[] keys, JoinPrefilter.RangeBound bound) {
    if (desc.appendOnly() || bound == null) {
      return false;
    }
    List<Integer> keyList = Arrays.stream(keys).boxed().toList();
    if (keyList.contains(bound.column()) || keyList.stream().distinct().count() < keys.length) {
      return false; // nothing to range over, or a key column named twice (a.x = b.y AND a.x = b.z)
    }
    return !oneRowPerKey(desc, input, keys);
  }

  /**
   * The sorted side's table: the side's columns then {@code multiplicity bigint}; pk = join key
   * columns, the bound's column (ascending when matches lie above the bound, descending when
   * below), then every other column; distributed by the join key.
   */
  private static SortedJoinSide sortedSide(
      Executor input,
      int[] keys,
      TableDesc desc,
      StateStore store,
      long cacheUnits,
      int bits,
      JoinPrefilter.RangeBound bound) {
    int n = input.schema().size();
    List<Integer> pk = new ArrayList<>();
    List<OrderType> orders = new ArrayList<>();
    for (int k : keys) {
      pk.add(k); // distinct (sortedByBound): a key's encoding is the pk's first columns
      orders.add(OrderType.ASC);
    }
    pk.add(bound.column());
    orders.add(bound.above() ? OrderType.ASC : OrderType.DESC);
    for (int c = 0; c < n; c++) {
      if (!pk.contains(c)) {
        pk.add(c);
        orders.add(OrderType.ASC);
      }
    }
    int[] pkArr = pk.stream().mapToInt(Integer::intValue).toArray();
    List<DataType> types = new ArrayList<>(input.schema().types());
    types.add(DataType.BIGINT); // multiplicity
    StateTable t =
        StateTable.open(
            store,
            desc.tableId(),
            pkArr,
            StateTables.codecs(desc.tableId(), types, pkArr, orders, keys));
    return new SortedJoinSide(
        t, keys, n, bound, cacheUnits, bits, KeyFilter.exact(input.schema().types()));
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
    int idle = 0;
    while (true) {
      if (left.barrier != null && right.barrier != null) {
        return alignedBarrier();
      }
      boolean pickLeft = left.barrier == null && (right.barrier != null || turn == 0);
      turn ^= 1;
      Side s = pickLeft ? left : right;
      Message m = s.input.next();
      if (m == null) {
        // nothing from this side: try the other before giving up (an input that polls without
        // blocking returns null for "nothing now", so one quiet side must not stall the other)
        int pullable = (left.barrier == null ? 1 : 0) + (right.barrier == null ? 1 : 0);
        if (++idle >= pullable) {
          return null;
        }
        continue;
      }
      idle = 0;
      if (m instanceof Barrier b) {
        s.barrier = b;
      } else if (m instanceof Message.Chunk c) {
        Checks.checkState(started, "%s: chunk before the first barrier", info);
        join(c.chunk(), s, pickLeft ? right : left, pickLeft);
        if (!pending.isEmpty()) {
          return pending.poll();
        }
      }
    }
  }

  private Barrier alignedBarrier() {
    Barrier b = left.barrier;
    Checks.checkState(
        b.epoch().equals(right.barrier.epoch()),
        "%s: barriers not aligned: left %s, right %s",
        info,
        b,
        right.barrier);
    left.barrier = null;
    right.barrier = null;
    for (Side s : List.of(left, right)) {
      Checks.checkState(
          s.retractedKey == null,
          "%s: the U- of key %s (a column the plan says only grows) was not followed by its U+"
              + " before barrier %s",
          info,
          s.retractedKey,
          b.epoch());
    }
    if (!started || b.kind() == BarrierKind.INITIAL) {
      left.state.init(b.curr());
      right.state.init(b.curr());
      started = true;
    } else {
      left.state.commit(b.curr(), b.prev());
      right.state.commit(b.curr(), b.prev());
    }
    left.state.evict();
    right.state.evict();
    return b;
  }

  /**
   * Applies {@code chunk} of side {@code self} and queues its matches against {@code other} in
   * {@link #pending}, as chunks of at most {@link #OUTPUT_CHUNK_ROWS} candidate rows each, those
   * with no row the condition keeps left out.
   */
  private void join(StreamChunk chunk, Side self, Side other, boolean selfIsLeft) {
    StreamChunkBuilder[] out = {new StreamChunkBuilder(schema.types(), chunk.cardinality())};
    for (int i = 0; i < chunk.size(); i++) {
      if (!chunk.isVisible(i)) {
        continue;
      }
      Row row = chunk.row(i);
      Row key = row.project(self.state.keys());
      if (key.hasNull()) {
        continue; // NULL = x is never true: no match now or later
      }
      Op op = chunk.op(i).isInsert() ? Op.INSERT : Op.DELETE;
      if (self.pruned != null && cannotMatch(row, key, self.pruned, other)) {
        continue; // below the other side's growing bound: no match now or later, so not kept
      }
      Checks.checkState(
          op == Op.INSERT || !self.state.appendOnly(),
          "%s: the %s side is append-only (its plan says its input only inserts) but got a"
              + " delete of row %s",
          info,
          selfIsLeft ? "left" : "right",
          row);
      Checks.checkState(
          self.state.apply(key, row, op == Op.INSERT ? 1 : -1),
          "%s: delete of row %s that the %s side does not hold",
          info,
          row,
          selfIsLeft ? "left" : "right");
      other.state.forEachMatch(
          key,
          row,
          (match, times) -> {
            if (prefilter != null
                && !(selfIsLeft ? prefilter.mayPass(row, match) : prefilter.mayPass(match, row))) {
              return; // a conjunct of the condition already fails: no joined row to build
            }
            Row joined = selfIsLeft ? row.concat(match) : match.concat(row);
            for (long t = times; t > 0; t--) {
              out[0].append(op, joined);
              if (out[0].size() >= OUTPUT_CHUNK_ROWS) {
                emit(out[0].build());
                out[0] = new StreamChunkBuilder(schema.types(), OUTPUT_CHUNK_ROWS);
              }
            }
          });
      if (other.pruned != null) {
        grow(self, other, key, row, op);
      }
    }
    emit(out[0].build());
  }

  /**
   * Whether {@code row} of a pruned side lies below the growing value the other side holds under
   * {@code key} (or has a NULL bound column): it can match no row of the other side now, and, as
   * that value never falls, none later. The pruned side holds no such row (see {@link #grow}), so
   * neither its insert nor its delete is applied. The value is the other side's one row under the
   * key, or the value of its {@code U-} while the {@code U+} is still to come.
   */
  private boolean cannotMatch(Row row, Row key, JoinPrefilter.RangeBound bound, Side other) {
    Object c = row.get(bound.column());
    if (c == null) {
      return true;
    }
    Object m =
        other.retractedKey != null && other.retractedKey.equals(key)
            ? other.retractedValue
            : boundUnder(other, key, row, bound.otherColumn());
    return m != null && bound.below(c, m);
  }

  /** The value of column {@code column} of {@code side}'s one row under {@code key}, or null. */
  private Object boundUnder(Side side, Row key, Row probe, int column) {
    Object[] found = new Object[1];
    long[] rows = new long[1];
    side.state.forEachMatch(
        key,
        probe,
        (match, times) -> {
          rows[0] += times;
          found[0] = match.get(column);
        });
    Checks.checkState(
        rows[0] <= 1,
        "%s: the plan says a side holds one row per join key, but it holds %s under %s",
        info,
        rows[0],
        key);
    return found[0];
  }

  /**
   * Follows the growing value of {@code self}, the side that bounds the pruned side {@code other},
   * after {@code row} was applied: a {@code U-} is remembered until its {@code U+}, which must come
   * next, for the same key, with a value at least as high; then every row of {@code other} under
   * the key below the new value is deleted. The plan promises this growth; a change that breaks it
   * fails the actor rather than leave a wrong join.
   */
  private void grow(Side self, Side other, Row key, Row row, Op op) {
    Object v = row.get(other.pruned.otherColumn());
    if (op == Op.DELETE) {
      Checks.checkState(
          self.retractedKey == null,
          "%s: a growing column's U- of key %s came after the U- of key %s, not its U+",
          info,
          key,
          self.retractedKey);
      self.retractedKey = key;
      self.retractedValue = v;
      return;
    }
    Object from = null;
    if (self.retractedKey != null) {
      Checks.checkState(
          self.retractedKey.equals(key),
          "%s: a growing column's U- of key %s was followed by a change of key %s",
          info,
          self.retractedKey,
          key);
      from = self.retractedValue;
      Checks.checkState(
          from == null || (v != null && !other.pruned.below(v, from)),
          "%s: a column the plan says only grows fell from %s to %s under key %s",
          info,
          from,
          v,
          key);
      self.retractedKey = null;
      self.retractedValue = null;
    }
    boundUnder(self, key, row, other.pruned.otherColumn()); // checks: one row under the key
    if (v != null) {
      ((SortedJoinSide) other.state).dropBelow(key, v, from);
    }
  }

  /** Queues the candidate rows of {@code joined} the condition keeps, if there are any. */
  private void emit(StreamChunk joined) {
    if (joined.size() == 0) {
      return;
    }
    if (condition != null) {
      BoolVector ok = (BoolVector) condition.eval(joined, Vectors.visibleRows(joined));
      boolean[] keep = new boolean[joined.size()];
      for (int i = 0; i < keep.length; i++) {
        keep[i] = !ok.isNull(i) && ok.getBoolean(i);
      }
      joined = joined.withVisibility(keep);
    }
    if (joined.cardinality() > 0) {
      pending.add(Message.of(joined));
    }
  }
}
