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
import dev.tideway.common.vnode.VirtualNode;
import dev.tideway.compute.exchange.ChannelId;
import dev.tideway.compute.exchange.DispatchExecutor;
import dev.tideway.compute.exchange.Dispatcher;
import dev.tideway.compute.exchange.HashDispatcher;
import dev.tideway.compute.exchange.LocalChannel;
import dev.tideway.compute.exchange.OutputChannel;
import dev.tideway.compute.exchange.SimpleDispatcher;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Nexmark q5 as three fragments joined by local channels, the shape a planner that shares common
 * sub-plans gives it. q5 uses {@code AB = count(*) GROUP BY auction, window} twice: as the join's
 * left input and as the input of {@code MB = max(num) GROUP BY window}. RisingWave's planner shares
 * such a sub-plan (its StreamShare node): AB is computed once and its output read by both
 * consumers. Here the sharing is a fragment boundary: AB runs in its own fragment, whose dispatcher
 * sends every message into two channels per downstream actor. Computing AB twice in one actor (the
 * earlier shape) doubled the aggregation and its state writes, a large share of q5's cost.
 *
 * <ol>
 *   <li>Source fragment, P actors: {@code Source → Project(auction, date_time) → TUMBLE(2 s) →
 *       LocalAgg(count(*) group by auction, pane) → HOP(pane, 2 s, 10 s)} ({@link #sourcePlan}),
 *       the partial counts per (auction, window) hash-dispatched by (window_start, window_end) to
 *       the count actors (vnode v to count actor {@code v % P}), so every window lives on one count
 *       actor. The bids are append-only, so AB's count splits in two phases (as Flink's
 *       local-global aggregation and RisingWave's two-phase agg split it): half the bids go to one
 *       hot auction, and a partial row stands for many bids of it.
 *   <li>Count fragment, P actors: {@code Merge → HashAgg(sum(partial) group by auction,
 *       window_start, window_end)} (AB). Its output is already partitioned by window, so count
 *       actor i feeds only query actor i (no shuffle), through two channels: one {@link
 *       SimpleDispatcher} each.
 *   <li>Query fragment, P actors: {@code Materialize(Project(auction, window_start, num) of
 *       HashJoin(Merge AB, HashAgg(max(num) group by window) over Merge AB) on (window_start,
 *       window_end) with num >= maxn)}.
 * </ol>
 *
 * <p>AB emits its changes at barriers only, so a query actor receives each epoch's AB as a burst
 * just before the barrier, while the count actors already count the next epoch. Both merges of a
 * query actor are fed by the same count actor in the same order; the join pulls them alternately
 * and the max HashAgg yields after each input chunk, so neither channel fills while the join waits
 * on the other ({@link LocalJob#CHANNEL_CAPACITY}).
 *
 * <p>Every channel is made in the constructor. Built and used on the benchmark's main thread.
 */
final class ThreeFragmentJob implements LocalJob {
  static final int COUNT_FRAGMENT = 2;
  static final int QUERY_FRAGMENT = 3;

  /** Count actor c is {@code FIRST_COUNT_ACTOR + c}. */
  static final int FIRST_COUNT_ACTOR = 200;

  /** Query actor q is {@code FIRST_QUERY_ACTOR + q}; it reads count actor q. */
  static final int FIRST_QUERY_ACTOR = 300;

  static final Interval TWO_S = Interval.ofMicros(2_000_000);
  static final Interval TEN_S = Interval.ofMicros(10_000_000);

  /** Plan-node ids of the merges: the count actor's, the join's left input, the max's input. */
  private static final int COUNT_MERGE = 20;

  private static final int JOIN_MERGE = 30;
  private static final int MAX_MERGE = 31;

  /**
   * Messages per count-to-query channel. The count HashAgg emits an epoch's changes as one chunk at
   * the barrier, so a message here is a whole epoch of AB; {@link LocalJob#CHANNEL_CAPACITY} would
   * let four epochs queue before a query actor. Two (one epoch: its changes and its barrier) keeps
   * the count actor at most one epoch ahead. (At 5M events, P = 2, barrier latency showed no clear
   * difference between 2 and 8 on a loaded machine: stalls of the whole pipeline behind the query
   * actors dominate it.)
   */
  static final int AB_CHANNEL_CAPACITY = 2;

  /** The window columns of the partial counts (auction, window_start, window_end, partial). */
  private static final int[] WINDOW_COLUMNS = {1, 2};

  private static final DataType TS = DataType.TIMESTAMP;
  private static final DataType BIG = DataType.BIGINT;

  /** AB's rows: auction, window_start, window_end, num. */
  private static final Schema COUNTS = Schema.ofTypes(BIG, TS, TS, BIG);

  private final int parallelism;

  /** {@code toCount.get(c).get(s)}: source actor s to count actor c. */
  private final List<List<LocalChannel>> toCount = new ArrayList<>();

  /** Per query actor q, the channel from count actor q to its join's left input. */
  private final List<LocalChannel> toJoin = new ArrayList<>();

  /** Per query actor q, the channel from count actor q to its max aggregation. */
  private final List<LocalChannel> toMax = new ArrayList<>();

  /** P actors per fragment. */
  ThreeFragmentJob(int parallelism) {
    Checks.checkArgument(parallelism >= 1, "q5 parallelism must be >= 1, got %s", parallelism);
    this.parallelism = parallelism;
    for (int c = 0; c < parallelism; c++) {
      List<LocalChannel> in = new ArrayList<>();
      for (int s = 0; s < parallelism; s++) {
        long id = ChannelId.of(FIRST_SOURCE_ACTOR + s, FIRST_COUNT_ACTOR + c);
        in.add(new LocalChannel(id, CHANNEL_CAPACITY));
      }
      toCount.add(in);
      long id = ChannelId.of(FIRST_COUNT_ACTOR + c, FIRST_QUERY_ACTOR + c);
      toJoin.add(new LocalChannel(id, AB_CHANNEL_CAPACITY));
      toMax.add(new LocalChannel(id, AB_CHANNEL_CAPACITY));
    }
  }

  /**
   * The source fragment's plan: the first phase of AB's count over panes, then the HOP window over
   * the partial counts. A bid lies in the 5 windows that contain its 2 s pane (the slide divides
   * the size), so counting per (auction, pane) and expanding each partial to the pane's 5 windows
   * gives the same partials per (auction, window) as expanding every bid first, with a fifth of the
   * group lookups and none of the 5-fold bid chunks (Flink's sliding windows keep panes the same
   * way): {@code Project(auction, date_time) → TUMBLE(date_time, 2 s) → LocalAgg(count(*) group by
   * auction, pane_start) → HOP(pane_start, 2 s, 10 s) → Project(auction, window_start, window_end,
   * partial)}, rows then hashed by window.
   */
  static StreamPlanNode sourcePlan(StreamPlanNode source) {
    List<ExprNode> bidCols = List.of(new ExprNode.InputRef(0, BIG), new ExprNode.InputRef(5, TS));
    StreamPlanNode bids =
        StreamPlanNode.unary(1, new StreamNode.Project(bidCols), source, Schema.ofTypes(BIG, TS));
    StreamPlanNode panes =
        StreamPlanNode.unary(
            2, new StreamNode.TumbleWindow(1, TWO_S), bids, Schema.ofTypes(BIG, TS, TS, TS));
    StreamPlanNode partials =
        StreamPlanNode.unary(
            3,
            new StreamNode.LocalAgg(List.of(0, 2), List.of(AggCall.countStar())),
            panes,
            Schema.ofTypes(BIG, TS, BIG));
    StreamPlanNode windows =
        StreamPlanNode.unary(
            4,
            new StreamNode.HopWindow(1, TWO_S, TEN_S),
            partials,
            Schema.ofTypes(BIG, TS, BIG, TS, TS));
    List<ExprNode> cols =
        List.of(
            new ExprNode.InputRef(0, BIG),
            new ExprNode.InputRef(3, TS),
            new ExprNode.InputRef(4, TS),
            new ExprNode.InputRef(2, BIG));
    return StreamPlanNode.unary(5, new StreamNode.Project(cols), windows, COUNTS);
  }

  @Override
  public List<Fragment> downstream() {
    return List.of(
        new Fragment(
            COUNT_FRAGMENT, LocalJob.actorIds(FIRST_COUNT_ACTOR, parallelism), countPlan()),
        new Fragment(
            QUERY_FRAGMENT, LocalJob.actorIds(FIRST_QUERY_ACTOR, parallelism), queryPlan()));
  }

  @Override
  public String mode() {
    return "three-fragment (P source StreamActors -> 2 s panes -> local count -> HOP over the panes"
        + " -> local hash exchange on the window"
        + " -> P count StreamActors (AB, computed once) -> no-shuffle, two channels each"
        + " -> P query StreamActors (join AB with max over AB))";
  }

  @Override
  public Executor output(int actorId, Executor chain) {
    ExecutorInfo info = new ExecutorInfo(actorId, -1, "Dispatch");
    int s = actorId - FIRST_SOURCE_ACTOR;
    if (s >= 0 && s < parallelism) {
      List<OutputChannel> outs = new ArrayList<>();
      for (List<LocalChannel> in : toCount) {
        outs.add(in.get(s));
      }
      int[] owner = new int[VirtualNode.COUNT];
      for (int v = 0; v < owner.length; v++) {
        owner[v] = v % parallelism;
      }
      Dispatcher d = new HashDispatcher(outs, owner, chain.schema().types(), WINDOW_COLUMNS);
      return CheckedExecutor.wrap(new DispatchExecutor(info, chain, d));
    }
    int c = actorId - FIRST_COUNT_ACTOR;
    if (c >= 0 && c < parallelism) {
      List<Dispatcher> both =
          List.of(new SimpleDispatcher(toJoin.get(c)), new SimpleDispatcher(toMax.get(c)));
      return CheckedExecutor.wrap(new DispatchExecutor(info, chain, both, channel -> {}));
    }
    int q = actorId - FIRST_QUERY_ACTOR;
    Checks.checkArgument(
        q >= 0 && q < parallelism, "q5 with P=%s has no actor %s", parallelism, actorId);
    return chain;
  }

  @Override
  public List<LocalChannel> inputsOf(int actorId, StreamPlanNode node) {
    return channelsOf(actorId, node.operatorId());
  }

  private List<LocalChannel> channelsOf(int actorId, int mergeId) {
    int c = actorId - FIRST_COUNT_ACTOR;
    if (mergeId == COUNT_MERGE && c >= 0 && c < parallelism) {
      return toCount.get(c);
    }
    int q = actorId - FIRST_QUERY_ACTOR;
    if (q >= 0 && q < parallelism && (mergeId == JOIN_MERGE || mergeId == MAX_MERGE)) {
      return List.of(mergeId == JOIN_MERGE ? toJoin.get(q) : toMax.get(q));
    }
    throw new IllegalArgumentException(
        "q5 with P=" + parallelism + ": actor " + actorId + " has no merge " + mergeId);
  }

  /** A count actor's plan: AB, the sum of the partial counts of its windows. */
  private static StreamPlanNode countPlan() {
    StreamPlanNode merge =
        StreamPlanNode.leaf(
            COUNT_MERGE, new StreamNode.Merge(SOURCE_FRAGMENT, DispatcherKind.HASH), COUNTS);
    return StreamPlanNode.unary(
        22,
        new StreamNode.HashAgg(
            List.of(0, 1, 2),
            List.of(StreamNode.LocalAgg.globalCall(AggCall.countStar(), 3)),
            NexmarkQuery.table(22, List.of(BIG, TS, TS), 3),
            Map.of()),
        merge,
        COUNTS);
  }

  /**
   * A query actor's plan over its count actor's AB; the view is (auction, window_start, num) keyed
   * by (auction, window_start).
   */
  private static StreamPlanNode queryPlan() {
    StreamPlanNode ab = abMerge(JOIN_MERGE);
    StreamPlanNode mb =
        StreamPlanNode.unary(
            33,
            new StreamNode.HashAgg(
                List.of(1, 2),
                List.of(AggCall.of(AggKind.MAX, new ExprNode.InputRef(3, BIG), BIG)),
                NexmarkQuery.table(33, List.of(TS, TS), 2),
                // no value table: AB's num is a count over bids, which only grows (each change is
                // U- old, U+ new >= old), so the max never needs the next-highest value
                Map.of()),
            abMerge(MAX_MERGE),
            Schema.ofTypes(TS, TS, BIG));
    ExprNode cond =
        ExprNode.FunctionCall.of(
            FunctionKind.GREATER_THAN_OR_EQUAL,
            DataType.BOOLEAN,
            new ExprNode.InputRef(3, BIG),
            new ExprNode.InputRef(6, BIG));
    List<DataType> both = new ArrayList<>(COUNTS.types());
    both.addAll(mb.outputSchema().types());
    StreamPlanNode join =
        new StreamPlanNode(
            40,
            new StreamNode.HashJoin(
                JoinType.INNER,
                List.of(1, 2),
                List.of(0, 1),
                Optional.of(cond),
                NexmarkQuery.table(41, COUNTS.types(), 3),
                NexmarkQuery.table(42, mb.outputSchema().types(), 2),
                // MB's maxn is a max of AB's counts, which only grow, and MB's join key is its
                // stream key: the join keeps only the counts at or above their window's maximum
                List.of(6)),
            List.of(ab, mb),
            Schema.ofTypes(both));
    List<ExprNode> cols =
        List.of(
            new ExprNode.InputRef(0, BIG),
            new ExprNode.InputRef(1, TS),
            new ExprNode.InputRef(3, BIG));
    StreamPlanNode proj =
        StreamPlanNode.unary(43, new StreamNode.Project(cols), join, Schema.ofTypes(BIG, TS, BIG));
    TableDesc mv = NexmarkQuery.table(NexmarkQuery.MV_TABLE, List.of(BIG, TS, BIG), 2);
    return StreamPlanNode.unary(44, new StreamNode.Materialize(mv), proj, proj.outputSchema());
  }

  /** A merge of the count actor's AB (one channel: no shuffle). */
  private static StreamPlanNode abMerge(int mergeId) {
    return StreamPlanNode.leaf(
        mergeId, new StreamNode.Merge(COUNT_FRAGMENT, DispatcherKind.NO_SHUFFLE), COUNTS);
  }
}
