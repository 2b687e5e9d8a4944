package dev.tideway.compute.bench;

import dev.tideway.barrier.executor.CheckedExecutor;
import dev.tideway.barrier.executor.Executor;
import dev.tideway.barrier.executor.ExecutorInfo;
import dev.tideway.common.plan.AggCall;
import dev.tideway.common.plan.AggKind;
import dev.tideway.common.plan.DispatcherKind;
import dev.tideway.common.plan.ExprNode;
import dev.tideway.common.plan.FunctionKind;
import dev.tideway.common.plan.JoinType;
import dev.tideway.common.plan.StreamNode;
import dev.tideway.common.plan.StreamPlanNode;
import dev.tideway.common.plan.TableDesc;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Interval;
import dev.tideway.common.types.Schema;
import dev.tideway.compute.actor.ExecutorBuildContext;
import dev.tideway.compute.actor.ExecutorBuilder;
import dev.tideway.compute.exchange.BroadcastDispatcher;
import dev.tideway.compute.exchange.ChannelId;
import dev.tideway.compute.exchange.DispatchExecutor;
import dev.tideway.compute.exchange.InputChannel;
import dev.tideway.compute.exchange.LocalChannel;
import dev.tideway.compute.exchange.MergeExecutor;
import dev.tideway.compute.exchange.OutputChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Nexmark q5 and q7 as two fragments joined by local channels: P source actors run {@code Source →
 * Project(auction, bidder, price, date_time)} and broadcast each message to two channels into one
 * query actor, which reads one channel set through each of its two merges (they align the sources'
 * barriers). q7's actor runs {@code Materialize(HashJoin(Merge(bids), HashAgg(max(price) group by
 * window_start, window_end) over TUMBLE(Merge(bids), 10 s)) on price = max with date_time BETWEEN
 * window_end - 10 s AND window_end)}; q5's runs {@code Materialize(Project(auction, window_start,
 * num) of HashJoin(AB, MB) on (window_start, window_end) with num >= maxn)} where AB = {@code
 * HashAgg(count(*) group by auction, window_start, window_end)} over {@code HOP(Merge(bids), 2 s,
 * 10 s)} and MB = {@code HashAgg(max(num) group by window_start, window_end)} over a second AB on
 * the other merge.
 *
 * <p>Both merges of the query actor are fed by the same source actors, so the join must alternate
 * between them: the HashAggs below it yield after each input chunk, and the channels stay small
 * ({@link #CHANNEL_CAPACITY}). Built on the benchmark's main thread.
 */
final class TwoFragmentJob {
  /**
   * Messages per channel. Small, so a saturated query actor holds barriers back by at most this
   * many chunks per channel; it works because HashAgg yields after each input chunk, so the join
   * alternates between its inputs instead of draining one side's epoch first.
   */
  static final int CHANNEL_CAPACITY = 64;

  /** The query actor's id. */
  static final int QUERY_ACTOR = 300;

  static final Interval TEN_S = Interval.ofMicros(10_000_000);

  private static final int BID_MERGE = 1;
  private static final int AGG_MERGE = 2;

  /** Channels of the bid side and of the agg side, one per source actor. */
  private final List<LocalChannel> bidSide = new ArrayList<>();

  private final List<LocalChannel> aggSide = new ArrayList<>();

  /** The source fragment's plan: the bid columns q7 reads. */
  static StreamPlanNode sourcePlan(StreamPlanNode source) {
    List<ExprNode> cols = List.of(ref(0), ref(1), ref(2), ref(5));
    return StreamPlanNode.unary(
        1, new StreamNode.Project(cols), source, Schema.ofTypes(types(cols)));
  }

  /** Wraps a source actor's chain in a dispatcher broadcasting to both q7 merges. */
  Executor dispatch(int actorId, Executor chain) {
    LocalChannel bid = new LocalChannel(ChannelId.of(actorId, QUERY_ACTOR), CHANNEL_CAPACITY);
    LocalChannel agg = new LocalChannel(ChannelId.of(actorId, QUERY_ACTOR), CHANNEL_CAPACITY);
    bidSide.add(bid);
    aggSide.add(agg);
    List<OutputChannel> outs = List.of(bid, agg);
    return CheckedExecutor.wrap(
        new DispatchExecutor(
            new ExecutorInfo(actorId, -1, "Dispatch"), chain, new BroadcastDispatcher(outs)));
  }

  /** Builds {@code Merge} leaves from the channels {@link #dispatch} made. */
  ExecutorBuilder mergeBuilder() {
    return new ExecutorBuilder() {
      @Override
      public Set<Class<? extends StreamNode>> nodeKinds() {
        return Set.of(StreamNode.Merge.class);
      }

      @Override
      public Executor build(ExecutorBuildContext ctx, StreamPlanNode node, List<Executor> in) {
        StreamNode.Merge m = (StreamNode.Merge) node.node();
        List<InputChannel> chans =
            new ArrayList<>(m.upstreamFragmentId() == BID_MERGE ? bidSide : aggSide);
        return new MergeExecutor(ctx.infoOf(node), node.outputSchema(), chans);
      }
    };
  }

  static final Interval TWO_S = Interval.ofMicros(2_000_000);

  /** The q5 actor's plan; the view is (auction, window_start, num) keyed by (auction, window). */
  static StreamPlanNode q5Plan() {
    DataType ts = DataType.TIMESTAMP;
    DataType big = DataType.BIGINT;
    StreamPlanNode ab = countPerAuction(BID_MERGE, 20);
    StreamPlanNode ab2 = countPerAuction(AGG_MERGE, 30);
    StreamPlanNode mb =
        StreamPlanNode.unary(
            33,
            new StreamNode.HashAgg(
                List.of(1, 2),
                List.of(AggCall.of(AggKind.MAX, new ExprNode.InputRef(3, big), big)),
                NexmarkQuery.table(33, List.of(ts, ts), 2),
                Map.of(0, NexmarkQuery.table(34, List.of(ts, ts, big), 3))),
            ab2,
            Schema.ofTypes(ts, ts, big));
    ExprNode cond =
        ExprNode.FunctionCall.of(
            FunctionKind.GREATER_THAN_OR_EQUAL,
            DataType.BOOLEAN,
            new ExprNode.InputRef(3, big),
            new ExprNode.InputRef(6, big));
    List<DataType> both = new ArrayList<>(ab.outputSchema().types());
    both.addAll(mb.outputSchema().types());
    StreamPlanNode join =
        new StreamPlanNode(
            40,
            new StreamNode.HashJoin(
                JoinType.INNER,
                List.of(1, 2),
                List.of(0, 1),
                Optional.of(cond),
                NexmarkQuery.table(41, ab.outputSchema().types(), 3),
                NexmarkQuery.table(42, mb.outputSchema().types(), 2)),
            List.of(ab, mb),
            Schema.ofTypes(both));
    List<ExprNode> cols =
        List.of(
            new ExprNode.InputRef(0, big),
            new ExprNode.InputRef(1, ts),
            new ExprNode.InputRef(3, big));
    StreamPlanNode proj =
        StreamPlanNode.unary(43, new StreamNode.Project(cols), join, Schema.ofTypes(big, ts, big));
    TableDesc mv = NexmarkQuery.table(NexmarkQuery.MV_TABLE, List.of(big, ts, big), 2);
    return StreamPlanNode.unary(44, new StreamNode.Materialize(mv), proj, proj.outputSchema());
  }

  /** {@code count(*) group by auction, window_start, window_end} over HOP(2 s, 10 s) of a merge. */
  private static StreamPlanNode countPerAuction(int mergeId, int firstId) {
    DataType ts = DataType.TIMESTAMP;
    DataType big = DataType.BIGINT;
    Schema bids = Schema.ofTypes(big, big, big, ts);
    StreamPlanNode merge =
        StreamPlanNode.leaf(firstId, new StreamNode.Merge(mergeId, DispatcherKind.BROADCAST), bids);
    StreamPlanNode hop =
        StreamPlanNode.unary(
            firstId + 1,
            new StreamNode.HopWindow(3, TWO_S, TEN_S),
            merge,
            Schema.ofTypes(big, big, big, ts, ts, ts));
    return StreamPlanNode.unary(
        firstId + 2,
        new StreamNode.HashAgg(
            List.of(0, 4, 5),
            List.of(AggCall.countStar()),
            NexmarkQuery.table(firstId + 2, List.of(big, ts, ts), 3),
            Map.of()),
        hop,
        Schema.ofTypes(big, ts, ts, big));
  }

  /** The q7 actor's plan. */
  static StreamPlanNode q7Plan() {
    DataType ts = DataType.TIMESTAMP;
    DataType big = DataType.BIGINT;
    Schema bids = Schema.ofTypes(big, big, big, ts);
    StreamPlanNode bidMerge =
        StreamPlanNode.leaf(10, new StreamNode.Merge(BID_MERGE, DispatcherKind.BROADCAST), bids);
    StreamPlanNode aggMerge =
        StreamPlanNode.leaf(11, new StreamNode.Merge(AGG_MERGE, DispatcherKind.BROADCAST), bids);
    Schema windowed = Schema.ofTypes(big, big, big, ts, ts, ts);
    StreamPlanNode tumble =
        StreamPlanNode.unary(12, new StreamNode.TumbleWindow(3, TEN_S), aggMerge, windowed);
    StreamPlanNode agg =
        StreamPlanNode.unary(
            13,
            new StreamNode.HashAgg(
                List.of(4, 5),
                List.of(AggCall.of(AggKind.MAX, new ExprNode.InputRef(2, big), big)),
                NexmarkQuery.table(20, List.of(ts, ts), 2),
                Map.of()), // bids are append-only: MAX needs no value table (as planned)
            tumble,
            Schema.ofTypes(ts, ts, big));
    StreamPlanNode join = join(bidMerge, agg);
    List<DataType> out = join.outputSchema().types();
    TableDesc mv = NexmarkQuery.table(NexmarkQuery.MV_TABLE, out, out.size());
    return StreamPlanNode.unary(15, new StreamNode.Materialize(mv), join, join.outputSchema());
  }

  private static StreamPlanNode join(StreamPlanNode bids, StreamPlanNode agg) {
    DataType ts = DataType.TIMESTAMP;
    ExprNode time = new ExprNode.InputRef(3, ts);
    ExprNode end = new ExprNode.InputRef(5, ts);
    ExprNode cond =
        ExprNode.FunctionCall.of(
            FunctionKind.AND,
            DataType.BOOLEAN,
            ExprNode.FunctionCall.of(
                FunctionKind.GREATER_THAN_OR_EQUAL,
                DataType.BOOLEAN,
                time,
                ExprNode.FunctionCall.of(
                    FunctionKind.SUBTRACT,
                    ts,
                    end,
                    new ExprNode.Literal(TEN_S, DataType.INTERVAL))),
            ExprNode.FunctionCall.of(FunctionKind.LESS_THAN_OR_EQUAL, DataType.BOOLEAN, time, end));
    List<DataType> both = new ArrayList<>(bids.outputSchema().types());
    both.addAll(agg.outputSchema().types());
    return new StreamPlanNode(
        14,
        new StreamNode.HashJoin(
            JoinType.INNER,
            List.of(2),
            List.of(2),
            Optional.of(cond),
            NexmarkQuery.table(22, bids.outputSchema().types(), 4),
            NexmarkQuery.table(23, agg.outputSchema().types(), 3)),
        List.of(bids, agg),
        Schema.ofTypes(both));
  }

  private static ExprNode ref(int column) {
    return new ExprNode.InputRef(column, NexmarkQuery.BID.type(column));
  }

  private static List<DataType> types(List<ExprNode> exprs) {
    return exprs.stream().map(ExprNode::returnType).toList();
  }
}
