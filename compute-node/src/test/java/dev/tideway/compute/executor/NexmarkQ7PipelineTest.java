package dev.tideway.compute.executor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.barrier.executor.CheckedExecutor;
import dev.tideway.barrier.executor.Executor;
import dev.tideway.barrier.executor.ExecutorInfo;
import dev.tideway.barrier.message.Barrier;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.key.OrderType;
import dev.tideway.common.plan.AggCall;
import dev.tideway.common.plan.AggKind;
import dev.tideway.common.plan.ExprNode;
import dev.tideway.common.plan.FunctionKind;
import dev.tideway.common.plan.JoinType;
import dev.tideway.common.plan.StreamNode;
import dev.tideway.common.row.Row;
import dev.tideway.common.time.ManualClock;
import dev.tideway.common.time.RateLimiter;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Interval;
import dev.tideway.compute.executor.source.NexmarkConfig;
import dev.tideway.compute.executor.source.NexmarkSplitReader;
import dev.tideway.compute.executor.source.SourceExecutor;
import dev.tideway.compute.executor.source.SplitReader;
import dev.tideway.compute.testing.FakeSplitStateStore;
import dev.tideway.compute.testing.ScriptedBarrierInbox;
import dev.tideway.storage.api.Epochs;
import dev.tideway.storage.api.StateStores;
import dev.tideway.storage.api.Storage;
import dev.tideway.storage.api.StorageOptions;
import dev.tideway.storage.table.StateTables;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Nexmark q7 (highest bid per 10 s tumbling window, joined back to the bids with a time condition)
 * from the nexmark source through TUMBLE, HashAgg, HashJoin and Materialize; the view equals the
 * query computed directly over the generated bids.
 */
class NexmarkQ7PipelineTest {
  static final ExecutorInfo INFO = new ExecutorInfo(1, 1, "q7");
  static final Interval TEN_S = Interval.ofMicros(10_000_000);
  static final Map<String, String> OPTIONS =
      Map.of(
          "nexmark.table.type", "Bid",
          "nexmark.event.num", "3000",
          "nexmark.first.event.rate", "100",
          "nexmark.split.num", "2");

  static Executor source() {
    ScriptedBarrierInbox inbox = new ScriptedBarrierInbox();
    for (int e = 1; e <= 6; e++) {
      inbox.then(e == 1 ? 0 : 4, Epochs.of(e));
    }
    inbox.thenStop(0, Epochs.of(7), 1);
    return CheckedExecutor.wrap(
        new SourceExecutor(
            INFO,
            NexmarkSplitReader.allSplits(NexmarkConfig.parse(OPTIONS)),
            inbox,
            new FakeSplitStateStore(),
            new ManualClock(0),
            new SourceExecutor.Options(200, RateLimiter.UNLIMITED)));
  }

  static ExprNode ref(int i, DataType t) {
    return new ExprNode.InputRef(i, t);
  }

  @Test
  void q7MaterializedViewEqualsTheQueryOverTheGeneratedBids() throws Exception {
    DataType ts = DataType.TIMESTAMP;
    DataType big = DataType.BIGINT;
    try (Storage store = StateStores.open("memory://", StorageOptions.defaults())) {
      // B: auction, bidder, price, date_time
      Executor bids =
          CheckedExecutor.wrap(
              ProjectExecutor.of(
                  INFO, source(), List.of(ref(0, big), ref(1, big), ref(2, big), ref(5, ts))));
      // B1: window_start, window_end, max(price)
      Executor windows = CheckedExecutor.wrap(new TumbleWindowExecutor(INFO, source(), 5, TEN_S));
      Executor maxPrice =
          CheckedExecutor.wrap(
              new HashAggExecutor(
                  INFO,
                  windows,
                  new StreamNode.HashAgg(
                      List.of(7, 8),
                      List.of(AggCall.of(AggKind.MAX, new ExprNode.InputRef(2, big), big)),
                      HashAggExecutorTest.table(70),
                      Map.of(0, HashAggExecutorTest.table(71))),
                  store,
                  16));
      ExprNode bTime = ref(3, ts);
      ExprNode windowEnd = ref(5, ts);
      ExprNode condition =
          ExprNode.FunctionCall.of(
              FunctionKind.AND,
              DataType.BOOLEAN,
              ExprNode.FunctionCall.of(
                  FunctionKind.GREATER_THAN_OR_EQUAL,
                  DataType.BOOLEAN,
                  bTime,
                  ExprNode.FunctionCall.of(
                      FunctionKind.SUBTRACT,
                      ts,
                      windowEnd,
                      new ExprNode.Literal(TEN_S, DataType.INTERVAL))),
              ExprNode.FunctionCall.of(
                  FunctionKind.LESS_THAN_OR_EQUAL, DataType.BOOLEAN, bTime, windowEnd));
      Executor join =
          CheckedExecutor.wrap(
              new HashJoinExecutor(
                  INFO,
                  bids,
                  maxPrice,
                  new StreamNode.HashJoin(
                      JoinType.INNER,
                      List.of(2),
                      List.of(2),
                      Optional.of(condition),
                      HashAggExecutorTest.table(72),
                      HashAggExecutorTest.table(73)),
                  store));
      List<DataType> types = join.schema().types();
      int[] pk = {0, 1, 2, 3, 4, 5, 6};
      List<OrderType> orders = Collections.nCopies(pk.length, OrderType.ASC);
      Executor mat =
          CheckedExecutor.wrap(
              new MaterializeExecutor(
                  INFO, join, StateTables.open(store, 74, types, pk, orders, pk)));
      Barrier last = null;
      for (var m = mat.next(); m != null; m = mat.next()) {
        if (m instanceof Barrier b) {
          PipelineRandomizedTest.checkpoint(store, b);
          last = b;
        }
      }
      List<Row> view =
          PipelineRandomizedTest.committed(
              store, 74, StateTables.codecs(74, types, pk, orders, pk), last.prev());
      assertThat(view).isNotEmpty();
      assertThat(new HashSet<>(view)).isEqualTo(expected());
    }
  }

  /** q7 computed directly: for each 10 s window its highest price, and the bids at that price. */
  static Set<Row> expected() {
    List<Row> bids = new ArrayList<>();
    for (SplitReader r : NexmarkSplitReader.allSplits(NexmarkConfig.parse(OPTIONS))) {
      long offset = 0;
      while (!r.isExhausted(offset)) {
        SplitReader.Batch b = r.read(offset, 500);
        offset = b.nextOffset();
        b.chunk().visibleRows().stream().map(StreamChunk.OpRow::row).forEach(bids::add);
      }
    }
    Map<LocalDateTime, Long> max = new HashMap<>();
    for (Row b : bids) {
      max.merge(windowStart((LocalDateTime) b.get(5)), (Long) b.get(2), Math::max);
    }
    Set<Row> out = new HashSet<>();
    max.forEach(
        (start, price) -> {
          LocalDateTime end = start.plusSeconds(10);
          for (Row b : bids) {
            LocalDateTime t = (LocalDateTime) b.get(5);
            if (b.get(2).equals(price) && !t.isBefore(start) && !t.isAfter(end)) {
              out.add(Row.of(b.get(0), b.get(1), b.get(2), t, start, end, price));
            }
          }
        });
    return out;
  }

  static LocalDateTime windowStart(LocalDateTime t) {
    long micros = dev.tideway.common.types.Temporals.timestampToMicros(t);
    return dev.tideway.common.types.Temporals.microsToTimestamp(
        micros - Math.floorMod(micros, 10_000_000L));
  }
}
