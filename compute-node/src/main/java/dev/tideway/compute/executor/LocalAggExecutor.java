package dev.tideway.compute.executor;

import dev.tideway.barrier.executor.Executor;
import dev.tideway.barrier.executor.ExecutorInfo;
import dev.tideway.barrier.message.Barrier;
import dev.tideway.barrier.message.Message;
import dev.tideway.barrier.message.Watermark;
import dev.tideway.common.check.Checks;
import dev.tideway.common.chunk.ColumnBuilder;
import dev.tideway.common.chunk.ColumnVector;
import dev.tideway.common.chunk.LongVector;
import dev.tideway.common.chunk.Op;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.chunk.StreamChunkBuilder;
import dev.tideway.common.plan.AggCall;
import dev.tideway.common.plan.AggKind;
import dev.tideway.common.plan.StreamNode;
import dev.tideway.common.row.Row;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Field;
import dev.tideway.common.types.Schema;
import dev.tideway.common.types.TypeId;
import dev.tideway.compute.expr.ExprException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Set;

/**
 * The first phase of a two-phase aggregation ({@link StreamNode.LocalAgg}): folds the rows of an
 * append-only input into partial results per group, with no state table, and emits every partial
 * group as an insert before each barrier and whenever {@code maxGroups} groups are open. The second
 * phase ({@link HashAggExecutor} with {@link StreamNode.LocalAgg#globalCall}s) merges the partials,
 * so a hot group costs the exchange and the stateful aggregation one row per flush instead of one
 * per input row: the first phase runs in the upstream actor over a small table that stays in the
 * CPU caches, the second over a table of every group.
 *
 * <p>Partials: a count is the number of rows (or non-NULL values) since the flush; a sum is the sum
 * of the non-NULL values (NULL when there were none, as SQL's sum of nothing); min and max the
 * extreme of the non-NULL values. A group never emits a partial of zero rows, so the global sum of
 * partial counts is a count of a group that exists.
 *
 * <p>Retractions cannot be split this way (a partial would have to carry a sign the second phase
 * cannot tell from a row that left the group), so a row that is not an insert fails the actor
 * naming the operator: the planner places a LocalAgg over append-only inputs only.
 *
 * <p>Group lookup: a key whose columns are all long-backed and not NULL goes through a {@link
 * RawKeyIndex} over the raw values (no {@code Row}, no decoded timestamps); other keys through a
 * map of {@code Row}s. Counts, and sum/min/max over BIGINT/TIME/TIMESTAMP(TZ) arguments (sums
 * returning BIGINT), accumulate in a {@code long[]}; other types as objects via {@link AggCalls}.
 *
 * <p>Yielding: like {@link HashAggExecutor}, {@code next} returns an empty chunk after each input
 * chunk it only absorbed, so a parent with two inputs gets control back.
 *
 * <p>Confined to the actor thread.
 */
public final class LocalAggExecutor implements Executor {
  /** Open partial groups that trigger a flush by default. */
  public static final int DEFAULT_MAX_GROUPS = 4096;

  /** The types whose columns are {@link LongVector}s (others take the object path). */
  private static final Set<TypeId> LONG_VECTOR_TYPES =
      EnumSet.of(TypeId.BIGINT, TypeId.TIME, TypeId.TIMESTAMP, TypeId.TIMESTAMPTZ);

  /** Rows per emitted chunk at most. */
  static final int OUTPUT_CHUNK_ROWS = 1024;

  private final ExecutorInfo info;
  private final Executor input;
  private final Schema schema;
  private final int[] groupKeys;
  private final List<AggCall> calls;

  /** Per call: the argument column, or -1 for count(*). */
  private final int[] args;

  /** Per call: accumulates in {@link Partial#longs} (counts, BIGINT sum/min/max of longs). */
  private final boolean[] inLongs;

  private final DataType[] argTypes;
  private final DataType[] accTypes;
  private final int maxGroups;
  private final StreamChunk yieldChunk;
  private final ArrayDeque<Message> pending = new ArrayDeque<>();

  /** Open groups in the order they opened. */
  private final List<Partial> open = new ArrayList<>();

  private final RawKeyIndex<Partial> rawGroups;
  private final HashMap<Row, Partial> rowGroups = new HashMap<>();

  /** One open group: its key and its calls' partials. */
  private static final class Partial {
    /** The key's raw values when looked up by them, else null. */
    final long[] rawKey;

    /** The key's values when looked up as a row, else null. */
    final Row key;

    /** Per call: count, or the long sum/min/max when {@link #inLongs}; else non-NULL count. */
    final long[] longs;

    /** Per call not {@link #inLongs}: the sum/min/max so far (null: no value yet). */
    final Object[] values;

    /** Per call: whether a non-NULL value was folded (for sums and extremes in longs). */
    final boolean[] seen;

    Partial(long[] rawKey, Row key, int calls) {
      this.rawKey = rawKey;
      this.key = key;
      this.longs = new long[calls];
      this.values = new Object[calls];
      this.seen = new boolean[calls];
    }
  }

  public LocalAggExecutor(ExecutorInfo info, Executor input, StreamNode.LocalAgg plan) {
    this(info, input, plan, DEFAULT_MAX_GROUPS);
  }

  /** A local aggregation that flushes once {@code maxGroups} groups are open. */
  public LocalAggExecutor(
      ExecutorInfo info, Executor input, StreamNode.LocalAgg plan, int maxGroups) {
    Checks.checkArgument(maxGroups > 0, "%s: max groups must be > 0, got %s", info, maxGroups);
    this.info = info;
    this.input = input;
    this.maxGroups = maxGroups;
    this.groupKeys = plan.groupKeys().stream().mapToInt(Integer::intValue).toArray();
    this.calls = plan.aggCalls();
    Schema in = input.schema();
    List<Field> fields = new ArrayList<>();
    for (int k : groupKeys) {
      fields.add(in.fields().get(k));
    }
    int n = calls.size();
    this.args = new int[n];
    this.inLongs = new boolean[n];
    this.argTypes = new DataType[n];
    this.accTypes = new DataType[n];
    for (int c = 0; c < n; c++) {
      AggCall call = calls.get(c);
      args[c] = call.args().isEmpty() ? -1 : call.args().get(0).index();
      argTypes[c] = args[c] < 0 ? null : in.type(args[c]);
      accTypes[c] = argTypes[c] == null ? null : AggCalls.accumulatorType(call, argTypes[c]);
      boolean count = call.kind() == AggKind.COUNT || call.kind() == AggKind.COUNT_STAR;
      boolean longArg = argTypes[c] != null && LONG_VECTOR_TYPES.contains(argTypes[c].id());
      inLongs[c] =
          count
              || (longArg
                  && (call.kind() != AggKind.SUM || call.returnType().id() == TypeId.BIGINT));
      fields.add(Field.of("partial_" + c, StreamNode.LocalAgg.partialType(call)));
    }
    this.schema = new Schema(fields);
    plan.checkSchemas(List.of(in), schema);
    this.rawGroups = groupKeys.length == 0 ? null : new RawKeyIndex<>(groupKeys.length);
    this.yieldChunk = new StreamChunkBuilder(schema.types(), 1).build();
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
        absorb(c.chunk());
        if (open.size() < maxGroups) {
          return Message.of(yieldChunk);
        }
        flush();
        return pending.poll();
      } else if (m instanceof Barrier b) {
        flush();
        pending.add(b);
        return pending.poll();
      } else if (m instanceof Watermark) {
        continue; // the second phase's results are not monotonic in any column either
      }
    }
  }

  private void absorb(StreamChunk chunk) {
    LongVector[] raw = rawGroups == null ? null : RawKeyIndex.longColumns(chunk, groupKeys);
    for (int i = 0; i < chunk.size(); i++) {
      if (!chunk.isVisible(i)) {
        continue;
      }
      Checks.checkState(
          chunk.op(i) == Op.INSERT,
          "%s: a local aggregation needs an append-only input, got a %s row",
          info,
          chunk.op(i));
      Partial p = group(chunk, raw, i);
      for (int c = 0; c < args.length; c++) {
        fold(p, c, chunk, i);
      }
    }
  }

  private Partial group(StreamChunk chunk, LongVector[] raw, int i) {
    if (raw != null && !RawKeyIndex.anyNull(raw, i)) {
      int h = RawKeyIndex.hash(raw, i);
      Partial p = rawGroups.get(raw, i, h);
      if (p == null) {
        long[] key = new long[raw.length];
        for (int k = 0; k < key.length; k++) {
          key[k] = raw[k].getLong(i);
        }
        p = new Partial(key, null, args.length);
        rawGroups.put(raw, i, h, p);
        open.add(p);
      }
      return p;
    }
    Object[] values = new Object[groupKeys.length];
    for (int k = 0; k < values.length; k++) {
      values[k] = chunk.column(groupKeys[k]).get(i);
    }
    Row key = Row.wrap(values);
    Partial p = rowGroups.get(key);
    if (p == null) {
      p = new Partial(null, key, args.length);
      rowGroups.put(key, p);
      open.add(p);
    }
    return p;
  }

  private void fold(Partial p, int c, StreamChunk chunk, int i) {
    if (args[c] < 0) {
      p.longs[c]++;
      return;
    }
    ColumnVector col = chunk.column(args[c]);
    if (col.isNull(i)) {
      return; // every call here ignores NULL inputs
    }
    AggKind kind = calls.get(c).kind();
    if (kind == AggKind.COUNT) {
      p.longs[c]++;
    } else if (inLongs[c]) {
      long v = ((LongVector) col).getLong(i);
      p.longs[c] = p.seen[c] ? foldLong(kind, p.longs[c], v) : v;
      p.seen[c] = true;
    } else if (kind == AggKind.SUM) {
      p.values[c] = AggCalls.add(calls.get(c), accTypes[c], p.values[c], col.get(i), 1);
      p.longs[c]++;
    } else {
      Object v = col.get(i);
      if (p.values[c] == null || AggCalls.better(kind, argTypes[c], v, p.values[c])) {
        p.values[c] = v;
      }
    }
  }

  private long foldLong(AggKind kind, long acc, long v) {
    return switch (kind) {
      case MIN -> Math.min(acc, v);
      case MAX -> Math.max(acc, v);
      default -> {
        try {
          yield Math.addExact(acc, v);
        } catch (ArithmeticException e) {
          throw new ExprException(
              ExprException.Reason.NUMERIC_OUT_OF_RANGE,
              "bigint out of range: " + kind + " at " + acc + " + " + v);
        }
      }
    };
  }

  /** Queues every open group as inserts, in chunks of at most {@link #OUTPUT_CHUNK_ROWS} rows. */
  private void flush() {
    int keys = groupKeys.length;
    for (int from = 0; from < open.size(); from += OUTPUT_CHUNK_ROWS) {
      int to = Math.min(open.size(), from + OUTPUT_CHUNK_ROWS);
      StreamChunkBuilder b = new StreamChunkBuilder(schema.types(), to - from);
      for (int g = from; g < to; g++) {
        Partial p = open.get(g);
        for (int k = 0; k < keys; k++) {
          ColumnBuilder col = b.column(k);
          if (p.rawKey != null) {
            col.appendLong(p.rawKey[k]);
          } else {
            col.append(p.key.get(k));
          }
        }
        for (int c = 0; c < args.length; c++) {
          appendPartial(b.column(keys + c), p, c);
        }
        b.appendOp(Op.INSERT);
      }
      pending.add(Message.of(b.build()));
    }
    open.clear();
    rowGroups.clear();
    if (rawGroups != null) {
      rawGroups.clear();
    }
  }

  private void appendPartial(ColumnBuilder col, Partial p, int c) {
    AggKind kind = calls.get(c).kind();
    if (kind == AggKind.COUNT || kind == AggKind.COUNT_STAR) {
      col.appendLong(p.longs[c]);
    } else if (inLongs[c]) {
      if (p.seen[c]) {
        col.appendLong(p.longs[c]);
      } else {
        col.appendNull();
      }
    } else if (kind == AggKind.SUM) {
      col.append(AggCalls.result(calls.get(c), p.values[c], p.longs[c]));
    } else {
      col.append(p.values[c]);
    }
  }
}
