package dev.tideway.compute.bench;

import dev.tideway.barrier.executor.CheckedExecutor;
import dev.tideway.barrier.executor.Executor;
import dev.tideway.barrier.executor.ExecutorInfo;
import dev.tideway.common.check.Checks;
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
import dev.tideway.compute.exchange.BroadcastDispatcher;
import dev.tideway.compute.exchange.ChannelId;
import dev.tideway.compute.exchange.DispatchExecutor;
import dev.tideway.compute.exchange.LocalChannel;
import dev.tideway.compute.exchange.OutputChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Nexmark q7 as two fragments joined by local channels. Each of the P source actors runs {@code
 * Source → Project(auction, bidder, price, date_time)} and broadcasts into two channels to the one
 * query actor, one per merge (both merges read the same rows). The query actor runs {@code
 * Materialize(HashJoin(Merge(bids), HashAgg(max(price) group by window_start, window_end) over
 * TUMBLE(Merge(bids), 10 s)) on price = max with date_time BETWEEN window_end - 10 s AND
 * window_end)}. Its planned shape (bids hashed by price into P join actors, the max computed in an
 * agg fragment and hashed by the max into them) joins two merges fed by different upstream actors;
 * the join pulls them alternately and a merge blocks while empty, so until merges can be polled
 * without blocking that shape stalls once the bid channels fill during an epoch. MAX has no value
 * table: bids are append-only. (q5 runs three fragments: {@link ThreeFragmentJob}.)
 *
 * <p>Both merges of the query actor are fed by the same source actors, so the join must alternate
 * between them: the HashAgg below it yields after each input chunk, and the channels stay small
 * ({@link LocalJob#CHANNEL_CAPACITY}). Channels are made as the source actors are wrapped ({@link
 * #output}), so the source actors are built first. Built and used on the benchmark's main thread.
 */
final class TwoFragmentJob implements LocalJob {
  /** The query actor's id. */
  static final int QUERY_ACTOR = 300;

  static final int QUERY_FRAGMENT = 2;

  static final Interval TEN_S = Interval.ofMicros(10_000_000);

  private static final int BID_MERGE = 1;
  private static final int AGG_MERGE = 2;

  /** The query actor's bid-side and agg-side channels, one per source actor. */
  private final List<LocalChannel> bidSide = new ArrayList<>();

  private final List<LocalChannel> aggSide = new ArrayList<>();

  /** The source fragment's plan: the bid columns q7 reads. */
  static StreamPlanNode sourcePlan(StreamPlanNode source) {
    return LocalJob.bidColumns(source);
  }

  @Override
  public List<Fragment> downstream() {
    return List.of(new Fragment(QUERY_FRAGMENT, List.of(QUERY_ACTOR), q7Plan()));
  }

  @Override
  public String mode() {
    return "two-fragment (P source StreamActors -> local broadcast channels -> 1 query StreamActor)";
  }

  /**
   * Wraps a source actor's chain in the dispatcher feeding both merges of the query actor; the
   * query actor's chain is returned as it is.
   */
  @Override
  public Executor output(int actorId, Executor chain) {
    if (actorId == QUERY_ACTOR) {
      return chain;
    }
    Checks.checkArgument(
        actorId >= FIRST_SOURCE_ACTOR && actorId < QUERY_ACTOR, "q7 has no actor %s", actorId);
    long id = ChannelId.of(actorId, QUERY_ACTOR);
    LocalChannel bid = new LocalChannel(id, CHANNEL_CAPACITY);
    LocalChannel agg = new LocalChannel(id, CHANNEL_CAPACITY);
    bidSide.add(bid);
    aggSide.add(agg);
    ExecutorInfo info = new ExecutorInfo(actorId, -1, "Dispatch");
    List<OutputChannel> both = List.of(bid, agg);
    return CheckedExecutor.wrap(new DispatchExecutor(info, chain, new BroadcastDispatcher(both)));
  }

  /** The bid-side or agg-side channels {@link #output} made for the source actors. */
  @Override
  public List<LocalChannel> inputsOf(int actorId, StreamPlanNode node) {
    StreamNode.Merge m = (StreamNode.Merge) node.node();
    return m.upstreamFragmentId() == BID_MERGE ? bidSide : aggSide;
  }

  /** The q7 actor's plan. */
  private static StreamPlanNode q7Plan() {
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
            NexmarkQuery.table(22, bids.outputSchema().types(), 4, true), // bids only insert
            NexmarkQuery.table(23, agg.outputSchema().types(), 3)),
        List.of(bids, agg),
        Schema.ofTypes(both));
  }
}
