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
import dev.tideway.common.vnode.VirtualNode;
import dev.tideway.compute.actor.ExecutorBuildContext;
import dev.tideway.compute.actor.ExecutorBuilder;
import dev.tideway.compute.exchange.BroadcastDispatcher;
import dev.tideway.compute.exchange.ChannelId;
import dev.tideway.compute.exchange.DispatchExecutor;
import dev.tideway.compute.exchange.HashDispatcher;
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
 * Nexmark q5 and q7 as two fragments joined by local channels. Each source actor runs {@code Source
 * → Project(auction, bidder, price, date_time)} and feeds two channel sets, one per merge of the
 * query actors (both merges read the same rows).
 *
 * <p>q5 (the plan shape a planner gives it): the source fragment also applies {@code HOP(2 s, 10
 * s)} and hash-dispatches each row by (window_start, window_end) to P query actors, so every window
 * lives on one actor. Each runs {@code Materialize(Project(auction, window_start, num) of
 * HashJoin(AB, MB) on (window_start, window_end) with num >= maxn)}, where AB = {@code
 * HashAgg(count(*) group by auction, window_start, window_end)} over one merge and MB = {@code
 * HashAgg(max(num) group by window_start, window_end)} over a second AB on the other merge.
 *
 * <p>q7: one query actor behind broadcast channels, running {@code
 * Materialize(HashJoin(Merge(bids), HashAgg(max(price) group by window_start, window_end) over
 * TUMBLE(Merge(bids), 10 s)) on price = max with date_time BETWEEN window_end - 10 s AND
 * window_end)}. Its planned shape (bids hashed by price into P join actors, the max computed in an
 * agg fragment and hashed by the max into them) joins two merges fed by different upstream actors;
 * the join pulls them alternately and a merge blocks while empty, so until merges can be polled
 * without blocking that shape stalls once the bid channels fill during an epoch. MAX has no value
 * table: bids are append-only.
 *
 * <p>Both merges of a query actor are fed by the same source actors, so the join must alternate
 * between them: the HashAggs below it yield after each input chunk, and the channels stay small
 * ({@link #CHANNEL_CAPACITY}). Built on the benchmark's main thread.
 */
final class TwoFragmentJob {
  /**
   * Messages per channel. Small, so a saturated query actor holds barriers back by at most this
   * many chunks per channel (64 kept q7's barriers ~3 s behind at ~60k events/s); it works because
   * HashAgg yields after each input chunk, so the join alternates between its inputs instead of
   * draining one side's epoch first.
   */
  static final int CHANNEL_CAPACITY = 8;

  /** The first query actor's id; query actor q is {@code FIRST_QUERY_ACTOR + q}. */
  static final int FIRST_QUERY_ACTOR = 300;

  static final Interval TEN_S = Interval.ofMicros(10_000_000);

  private static final int BID_MERGE = 1;
  private static final int AGG_MERGE = 2;

  /** q5's source rows: auction, bidder, price, date_time, window_start, window_end. */
  private static final int[] WINDOW_COLUMNS = {4, 5};

  private final boolean hashByWindow;
  private final int queryActors;

  /** Per query actor, its bid-side and agg-side channels, one per source actor. */
  private final List<List<LocalChannel>> bidSide = new ArrayList<>();

  private final List<List<LocalChannel>> aggSide = new ArrayList<>();

  /**
   * q5: {@code parallelism} query actors, each fed by every source through a hash exchange on the
   * window; q7: one query actor fed through broadcast channels.
   */
  TwoFragmentJob(NexmarkQuery query, int parallelism) {
    this.hashByWindow = query == NexmarkQuery.Q5;
    this.queryActors = hashByWindow ? parallelism : 1;
    for (int q = 0; q < queryActors; q++) {
      bidSide.add(new ArrayList<>());
      aggSide.add(new ArrayList<>());
    }
  }

  /** The query actors' ids. */
  List<Integer> queryActorIds() {
    List<Integer> ids = new ArrayList<>();
    for (int q = 0; q < queryActors; q++) {
      ids.add(FIRST_QUERY_ACTOR + q);
    }
    return ids;
  }

  /** How the fragments are joined, for the benchmark's {@code mode=} line. */
  String mode() {
    return hashByWindow
        ? "two-fragment (P source StreamActors -> HOP -> local hash exchange on the window"
            + " -> P query StreamActors)"
        : "two-fragment (P source StreamActors -> local broadcast channels -> 1 query StreamActor)";
  }

  /**
   * The source fragment's plan: the bid columns the queries read; q5 also applies its HOP window
   * there, so rows can be hashed by window.
   */
  static StreamPlanNode sourcePlan(NexmarkQuery query, StreamPlanNode source) {
    List<ExprNode> cols = List.of(ref(0), ref(1), ref(2), ref(5));
    StreamPlanNode project =
        StreamPlanNode.unary(1, new StreamNode.Project(cols), source, Schema.ofTypes(types(cols)));
    if (query != NexmarkQuery.Q5) {
      return project;
    }
    DataType ts = DataType.TIMESTAMP;
    DataType big = DataType.BIGINT;
    return StreamPlanNode.unary(
        2,
        new StreamNode.HopWindow(3, TWO_S, TEN_S),
        project,
        Schema.ofTypes(big, big, big, ts, ts, ts));
  }

  /** Wraps a source actor's chain in the dispatchers feeding both merges of the query actors. */
  Executor dispatch(int actorId, Executor chain) {
    List<OutputChannel> bids = new ArrayList<>();
    List<OutputChannel> aggs = new ArrayList<>();
    for (int q = 0; q < queryActors; q++) {
      long id = ChannelId.of(actorId, FIRST_QUERY_ACTOR + q);
      LocalChannel bid = new LocalChannel(id, CHANNEL_CAPACITY);
      LocalChannel agg = new LocalChannel(id, CHANNEL_CAPACITY);
      bidSide.get(q).add(bid);
      aggSide.get(q).add(agg);
      bids.add(bid);
      aggs.add(agg);
    }
    ExecutorInfo info = new ExecutorInfo(actorId, -1, "Dispatch");
    if (!hashByWindow) {
      List<OutputChannel> both = new ArrayList<>(bids);
      both.addAll(aggs);
      return CheckedExecutor.wrap(new DispatchExecutor(info, chain, new BroadcastDispatcher(both)));
    }
    int[] owner = new int[VirtualNode.COUNT];
    for (int v = 0; v < owner.length; v++) {
      owner[v] = v % queryActors;
    }
    List<DataType> types = chain.schema().types();
    Executor toBids =
        new DispatchExecutor(info, chain, new HashDispatcher(bids, owner, types, WINDOW_COLUMNS));
    return CheckedExecutor.wrap(
        new DispatchExecutor(info, toBids, new HashDispatcher(aggs, owner, types, WINDOW_COLUMNS)));
  }

  /** Builds {@code Merge} leaves from the channels {@link #dispatch} made for the actor. */
  ExecutorBuilder mergeBuilder() {
    return new ExecutorBuilder() {
      @Override
      public Set<Class<? extends StreamNode>> nodeKinds() {
        return Set.of(StreamNode.Merge.class);
      }

      @Override
      public Executor build(ExecutorBuildContext ctx, StreamPlanNode node, List<Executor> in) {
        StreamNode.Merge m = (StreamNode.Merge) node.node();
        int q = ctx.actorId() - FIRST_QUERY_ACTOR;
        List<InputChannel> chans =
            new ArrayList<>(m.upstreamFragmentId() == BID_MERGE ? bidSide.get(q) : aggSide.get(q));
        return new MergeExecutor(ctx.infoOf(node), node.outputSchema(), chans);
      }
    };
  }

  /** The query actors' plan. */
  StreamPlanNode queryPlan() {
    return hashByWindow ? q5Plan() : q7Plan();
  }

  static final Interval TWO_S = Interval.ofMicros(2_000_000);

  /**
   * A q5 actor's plan (over its windows); the view is (auction, window_start, num) keyed by
   * (auction, window).
   */
  private static StreamPlanNode q5Plan() {
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

  /** {@code count(*) group by auction, window_start, window_end} over a merge of HOP rows. */
  private static StreamPlanNode countPerAuction(int mergeId, int firstId) {
    DataType ts = DataType.TIMESTAMP;
    DataType big = DataType.BIGINT;
    Schema windowed = Schema.ofTypes(big, big, big, ts, ts, ts);
    StreamPlanNode merge =
        StreamPlanNode.leaf(firstId, new StreamNode.Merge(mergeId, DispatcherKind.HASH), windowed);
    return StreamPlanNode.unary(
        firstId + 2,
        new StreamNode.HashAgg(
            List.of(0, 4, 5),
            List.of(AggCall.countStar()),
            NexmarkQuery.table(firstId + 2, List.of(big, ts, ts), 3),
            Map.of()),
        merge,
        Schema.ofTypes(big, ts, ts, big));
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
