package dev.tideway.compute.bench;

import dev.tideway.barrier.executor.Executor;
import dev.tideway.common.plan.ExprNode;
import dev.tideway.common.plan.StreamNode;
import dev.tideway.common.plan.StreamPlanNode;
import dev.tideway.common.types.Schema;
import dev.tideway.compute.actor.ExecutorBuildContext;
import dev.tideway.compute.actor.ExecutorBuilder;
import dev.tideway.compute.exchange.InputChannel;
import dev.tideway.compute.exchange.MergeExecutor;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A benchmark job whose source fragment feeds later fragments through local channels (q5: {@link
 * ThreeFragmentJob}, q7: {@link TwoFragmentJob}). The benchmark builds the source actors from the
 * query's plan, then every actor of {@link #downstream} in flow order, and wraps each actor's chain
 * with {@link #output}; barriers reach the downstream actors in band, through the channels.
 *
 * <p>Implementations are built and used on the benchmark's main thread; their channels are then
 * shared by exactly one producing and one consuming actor each.
 */
interface LocalJob {
  /**
   * Messages per channel. Small, so a saturated downstream actor holds barriers back by at most
   * this many chunks per channel (64 kept q7's barriers ~3 s behind at ~60k events/s); it works
   * because HashAgg yields after each input chunk, so a join fed by two channels from the same
   * upstream actors alternates between them instead of draining one side's epoch first.
   */
  int CHANNEL_CAPACITY = 8;

  /** The first source actor's id; source actor k (reading split k) is {@code FIRST_SOURCE + k}. */
  int FIRST_SOURCE_ACTOR = 100;

  /** The source fragment's id (the fragment ids name merges' upstreams and build contexts). */
  int SOURCE_FRAGMENT = 1;

  /** A fragment after the source: its id, its actors and the plan each of them runs. */
  record Fragment(int fragmentId, List<Integer> actorIds, StreamPlanNode plan) {
    public Fragment {
      actorIds = List.copyOf(actorIds);
    }
  }

  /** The fragments after the source, in flow order (each reads the one before it). */
  List<Fragment> downstream();

  /**
   * Wraps an actor's chain (of any fragment) in the dispatchers towards the next fragment; the last
   * fragment's chains are returned unchanged. Fails for an actor the job does not have.
   */
  Executor output(int actorId, Executor chain);

  /**
   * The channels feeding merge {@code node} (a {@code Merge} leaf) of actor {@code actorId}. Fails
   * for a merge the job does not have.
   */
  List<? extends InputChannel> inputsOf(int actorId, StreamPlanNode node);

  /** Builds the {@code Merge} leaves of the downstream actors over the job's channels. */
  default ExecutorBuilder mergeBuilder() {
    return new ExecutorBuilder() {
      @Override
      public Set<Class<? extends StreamNode>> nodeKinds() {
        return Set.of(StreamNode.Merge.class);
      }

      @Override
      public Executor build(ExecutorBuildContext ctx, StreamPlanNode node, List<Executor> in) {
        List<InputChannel> chans = new ArrayList<>(inputsOf(ctx.actorId(), node));
        return new MergeExecutor(ctx.infoOf(node), node.outputSchema(), chans);
      }
    };
  }

  /** How the fragments are joined, for the benchmark's {@code mode=} line. */
  String mode();

  /** The plan of the last fragment, whose Materialize holds the view. */
  default StreamPlanNode viewPlan() {
    List<Fragment> d = downstream();
    return d.get(d.size() - 1).plan();
  }

  /** {@code count} consecutive actor ids from {@code first}. */
  static List<Integer> actorIds(int first, int count) {
    List<Integer> ids = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      ids.add(first + i);
    }
    return ids;
  }

  /** {@code Project(auction, bidder, price, date_time)}: the bid columns q5 and q7 read. */
  static StreamPlanNode bidColumns(StreamPlanNode source) {
    List<ExprNode> cols = List.of(ref(0), ref(1), ref(2), ref(5));
    Schema out = Schema.ofTypes(cols.stream().map(ExprNode::returnType).toList());
    return StreamPlanNode.unary(1, new StreamNode.Project(cols), source, out);
  }

  private static ExprNode ref(int column) {
    return new ExprNode.InputRef(column, NexmarkQuery.BID.type(column));
  }
}
