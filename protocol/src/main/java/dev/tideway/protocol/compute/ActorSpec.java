package dev.tideway.protocol.compute;

import dev.tideway.common.check.Checks;
import dev.tideway.common.plan.StreamPlanNode;
import java.util.BitSet;
import java.util.List;
import java.util.Map;

/**
 * Meta's description of one actor to build on this node: the fragment's operator tree, the vnodes
 * it owns, where its merges read from and where its root dispatches to.
 *
 * @param actorId unique in the cluster
 * @param fragmentId the fragment this actor is an instance of
 * @param plan the fragment's operator tree; its {@code Merge} leaves read from the upstream actors
 * @param vnodes the vnodes this actor owns
 * @param upstreamActors for each upstream fragment id read by a {@code Merge}, its actors
 * @param dispatches where the root's output goes, one dispatcher per downstream fragment; empty
 *     when the fragment is the job's last (outputs can be added later, see {@code
 *     BuildActors.newOutputs})
 * @param splits source splits (source actors only)
 * @param jobId the streaming job the fragment belongs to (0 when built outside a cluster)
 */
public record ActorSpec(
    int actorId,
    int fragmentId,
    StreamPlanNode plan,
    BitSet vnodes,
    Map<Integer, List<Integer>> upstreamActors,
    List<DispatchSpec> dispatches,
    List<String> splits,
    int jobId) {
  public ActorSpec {
    Checks.checkNotNull(plan, "plan of actor " + actorId);
    vnodes = (BitSet) vnodes.clone();
    upstreamActors = Map.copyOf(upstreamActors);
    dispatches = List.copyOf(dispatches);
    splits = List.copyOf(splits);
  }

  /** A spec outside any job (tests). */
  public ActorSpec(
      int actorId,
      int fragmentId,
      StreamPlanNode plan,
      BitSet vnodes,
      Map<Integer, List<Integer>> upstreamActors,
      List<DispatchSpec> dispatches,
      List<String> splits) {
    this(actorId, fragmentId, plan, vnodes, upstreamActors, dispatches, splits, 0);
  }

  @Override
  public BitSet vnodes() {
    return (BitSet) vnodes.clone();
  }
}
