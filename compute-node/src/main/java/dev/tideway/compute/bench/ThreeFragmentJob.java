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
 *       LocalAgg(count(*) group by auction, pane)} ({@link #sourcePlan}), the partial counts per
 *       (auction, pane) hash-dispatched by auction to the count actors (vnode v to count actor
 *       {@code v % P}). The bids are append-only, so AB's count splits in two phases (as Flink's
 *       local-global aggregation and RisingWave's two-phase agg split it): half the bids go to one
 *       hot auction, and a partial row stands for many bids of it.
 *   <li>Count fragment, P actors: {@code Merge → PaneHopAgg(group by auction, pane, 2 s, 10 s)}
 *       (AB): one count per (auction, pane) kept, the counts of the five 10 s windows holding a
 *       changed pane emitted (Flink's window slicing), five times fewer state rows than a count per
 *       (auction, window). Its output is hashed by window to the query actors, through two channels
 *       per query actor: one {@link HashDispatcher} each.
 *   <li>Query fragment, P actors: {@code Materialize(Project(auction, window_start, num) of
 *       HashJoin(Merge AB, HashAgg(max(num) group by window) over Merge AB) on (window_start,
 *       window_end) with num >= maxn)}.
 * </ol>
 *
 * <p>Both merges of a query actor are fed by the same count actors in the same order; the join
 * pulls them alternately and the max HashAgg yields after each input chunk, so neither channel
 * fills while the join waits on the other ({@link LocalJob#CHANNEL_CAPACITY}).
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

  /** The window columns of AB (auction, window_start, window_end, num). */
  private static final int[] WINDOW_COLUMNS = {1, 2};

  /** The auction column of the partial counts (auction, pane_start, partial). */
  private static final int[] AUCTION_COLUMN = {0};

  private static final DataType TS = DataType.TIMESTAMP;
  private static final DataType BIG = DataType.BIGINT;

  /** AB's rows: auction, window_start, window_end, num. */
  private static final Schema COUNTS = Schema.ofTypes(BIG, TS, TS, BIG);

  /** The partial counts: auction, pane_start, partial. */
  private static final Schema PARTIALS = Schema.ofTypes(BIG, TS, BIG);

  private final int parallelism;

  /** {@code toCount.get(c).get(s)}: source actor s to count actor c. */
  private final List<List<LocalChannel>> toCount = new ArrayList<>();

  /** {@code toJoin.get(q).get(c)}: count actor c to query actor q's join (left input). */
  private final List<List<LocalChannel>> toJoin = new ArrayList<>();

  /** {@code toMax.get(q).get(c)}: count actor c to query actor q's max aggregation. */
  private final List<List<LocalChannel>> toMax = new ArrayList<>();

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
    }
    for (int q = 0; q < parallelism; q++) {
      List<LocalChannel> join = new ArrayList<>();
      List<LocalChannel> max = new ArrayList<>();
      for (int c = 0; c < parallelism; c++) {
        long id = ChannelId.of(FIRST_COUNT_ACTOR + c, FIRST_QUERY_ACTOR + q);
        join.add(new LocalChannel(id, CHANNEL_CAPACITY));
        max.add(new LocalChannel(id, CHANNEL_CAPACITY));
      }
      toJoin.add(join);
      toMax.add(max);
    }
  }

  /**
   * The source fragment's plan: the first phase of AB's count, per (auction, pane): {@code
   * Project(auction, date_time) → TUMBLE(date_time, 2 s) → LocalAgg(count(*) group by auction,
   * pane_start)}, rows then hashed by auction.
   */
  static StreamPlanNode sourcePlan(StreamPlanNode source) {
    List<ExprNode> bidCols = List.of(new ExprNode.InputRef(0, BIG), new ExprNode.InputRef(5, TS));
    StreamPlanNode bids =
        StreamPlanNode.unary(1, new StreamNode.Project(bidCols), source, Schema.ofTypes(BIG, TS));
    StreamPlanNode panes =
        StreamPlanNode.unary(
            2, new StreamNode.TumbleWindow(1, TWO_S), bids, Schema.ofTypes(BIG, TS, TS, TS));
    return StreamPlanNode.unary(
        3, new StreamNode.LocalAgg(List.of(0, 2), List.of(AggCall.countStar())), panes, PARTIALS);
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
    return "three-fragment (P source StreamActors -> local count per 2 s pane"
        + " -> local hash exchange on the auction"
        + " -> P count StreamActors (AB per pane, windows of 5 panes emitted, computed once)"
        + " -> local hash exchange on the window, two channels each"
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
      Dispatcher d = new HashDispatcher(outs, owners(), chain.schema().types(), AUCTION_COLUMN);
      return CheckedExecutor.wrap(new DispatchExecutor(info, chain, d));
    }
    int c = actorId - FIRST_COUNT_ACTOR;
    if (c >= 0 && c < parallelism) {
      List<OutputChannel> join = new ArrayList<>();
      List<OutputChannel> max = new ArrayList<>();
      for (int q = 0; q < parallelism; q++) {
        join.add(toJoin.get(q).get(c));
        max.add(toMax.get(q).get(c));
      }
      List<DataType> types = chain.schema().types();
      List<Dispatcher> both =
          List.of(
              new HashDispatcher(join, owners(), types, WINDOW_COLUMNS),
              new HashDispatcher(max, owners(), types, WINDOW_COLUMNS));
      return CheckedExecutor.wrap(new DispatchExecutor(info, chain, both, channel -> {}));
    }
    int q = actorId - FIRST_QUERY_ACTOR;
    Checks.checkArgument(
        q >= 0 && q < parallelism, "q5 with P=%s has no actor %s", parallelism, actorId);
    return chain;
  }

  /** Vnode v's actor: {@code v % P}. */
  private int[] owners() {
    int[] owner = new int[VirtualNode.COUNT];
    for (int v = 0; v < owner.length; v++) {
      owner[v] = v % parallelism;
    }
    return owner;
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
      return mergeId == JOIN_MERGE ? toJoin.get(q) : toMax.get(q);
    }
    throw new IllegalArgumentException(
        "q5 with P=" + parallelism + ": actor " + actorId + " has no merge " + mergeId);
  }

  /** A count actor's plan: AB, kept per (auction, pane), emitted per window. */
  private static StreamPlanNode countPlan() {
    StreamPlanNode merge =
        StreamPlanNode.leaf(
            COUNT_MERGE, new StreamNode.Merge(SOURCE_FRAGMENT, DispatcherKind.HASH), PARTIALS);
    return StreamPlanNode.unary(
        22,
        new StreamNode.PaneHopAgg(
            List.of(0), 1, 2, TWO_S, TEN_S, NexmarkQuery.table(22, List.of(BIG, TS, BIG), 2)),
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

  /** A merge of the count actors' AB, hashed by window. */
  private static StreamPlanNode abMerge(int mergeId) {
    return StreamPlanNode.leaf(
        mergeId, new StreamNode.Merge(COUNT_FRAGMENT, DispatcherKind.HASH), COUNTS);
  }
}
