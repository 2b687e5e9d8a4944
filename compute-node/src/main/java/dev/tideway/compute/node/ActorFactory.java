package dev.tideway.compute.node;

import dev.tideway.barrier.executor.CheckedExecutor;
import dev.tideway.barrier.executor.Executor;
import dev.tideway.barrier.executor.ExecutorInfo;
import dev.tideway.barrier.progress.ProgressSink;
import dev.tideway.common.check.Checks;
import dev.tideway.common.plan.DispatcherKind;
import dev.tideway.common.plan.StreamNode;
import dev.tideway.common.plan.StreamPlanNode;
import dev.tideway.common.time.Clock;
import dev.tideway.common.types.Schema;
import dev.tideway.compute.actor.BarrierInbox;
import dev.tideway.compute.actor.Doorbell;
import dev.tideway.compute.actor.ExecutorBuildContext;
import dev.tideway.compute.actor.ExecutorBuilders;
import dev.tideway.compute.exchange.BroadcastDispatcher;
import dev.tideway.compute.exchange.ChannelId;
import dev.tideway.compute.exchange.DispatchExecutor;
import dev.tideway.compute.exchange.Dispatcher;
import dev.tideway.compute.exchange.ExchangeMessage;
import dev.tideway.compute.exchange.ExchangeRegistry;
import dev.tideway.compute.exchange.HashDispatcher;
import dev.tideway.compute.exchange.InputChannel;
import dev.tideway.compute.exchange.MergeExecutor;
import dev.tideway.compute.exchange.OutputChannel;
import dev.tideway.compute.exchange.RemoteInput;
import dev.tideway.compute.exchange.RemoteOutput;
import dev.tideway.compute.exchange.SimpleDispatcher;
import dev.tideway.compute.executor.DmlChannels;
import dev.tideway.protocol.compute.ActorSpec;
import dev.tideway.protocol.compute.DispatchSpec;
import dev.tideway.storage.api.StateStore;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.apache.pekko.actor.typed.ActorRef;

/**
 * Turns an {@link ActorSpec} into a runnable chain: builds the operator tree bottom-up through the
 * {@link ExecutorBuilders} (the runtime itself builds {@code Merge} leaves from exchange channels),
 * wraps every executor in {@link CheckedExecutor}, and puts a {@link DispatchExecutor} on top of
 * every actor (with no dispatcher when the fragment is the job's last, so a later job can still
 * attach outputs to it). Channels to actors on this node are local bounded queues; channels to
 * other nodes are remote credit-based channels through the peers' exchange endpoints. A table's
 * {@code Dml} leaf registers its channel in the factory's {@link DmlChannels}.
 *
 * <p>Used on the node's control actor only.
 */
final class ActorFactory {
  /** Operator id given to the runtime's dispatch executor in {@link ExecutorInfo}s. */
  static final long DISPATCH_EXECUTOR_ID = -1;

  private final ComputeNodeConfig config;
  private final String selfAddress;
  private final ExecutorBuilders builders;
  private final ExchangeRegistry registry;
  private final Function<String, ActorRef<ExchangeMessage>> endpointOf;
  private final Clock clock;
  private final StateStore stateStore;
  private final DmlChannels dmlChannels = new DmlChannels();
  private final ComputeMetrics metrics;
  private final ExpressionErrors expressionErrors;
  private final ConnectorMetrics connectorMetrics;

  /**
   * A built chain: its checked root, its dispatcher, the executors holding resources (closed by the
   * actor thread when it exits) and its merges' shared doorbell (or null).
   */
  record Built(
      Executor root,
      DispatchExecutor dispatch,
      List<AutoCloseable> resources,
      Doorbell inputBell) {}

  ActorFactory(
      ComputeNodeConfig config,
      String selfAddress,
      ExecutorBuilders builders,
      ExchangeRegistry registry,
      Function<String, ActorRef<ExchangeMessage>> endpointOf,
      Clock clock,
      StateStore stateStore,
      ComputeMetrics metrics) {
    this.metrics = metrics;
    this.config = config;
    this.selfAddress = selfAddress;
    this.builders = builders;
    this.registry = registry;
    this.endpointOf = endpointOf;
    this.clock = clock;
    this.stateStore = stateStore;
    this.expressionErrors = new ExpressionErrors(clock, metrics.registry());
    this.connectorMetrics = new ConnectorMetrics(clock, metrics.registry());
  }

  /** The evaluation errors the node's actors turned into NULLs. */
  ExpressionErrors expressionErrors() {
    return expressionErrors;
  }

  /** The node's DML channels (written by the control loop's {@code WriteDml}). */
  DmlChannels dmlChannels() {
    return dmlChannels;
  }

  /** Builds the chain of {@code spec}; {@code actorNodes} locates every peer actor. */
  Built build(
      ActorSpec spec, BarrierInbox inbox, Map<Integer, String> actorNodes, ProgressSink progress) {
    ExecutorBuildContext ctx =
        new ExecutorBuildContext(
            spec.actorId(),
            spec.fragmentId(),
            spec.vnodes(),
            inbox,
            spec.splits(),
            clock,
            stateStore,
            progress,
            spec.plan(),
            dmlChannels,
            ExecutorBuildContext.inputBellFor(spec.plan()),
            config.stateCaches(),
            expressionErrors.sinkFor(spec.jobId(), spec.fragmentId()),
            connectorMetrics,
            !spec.dispatches().isEmpty());
    List<AutoCloseable> resources = new ArrayList<>();
    Executor chain = buildNode(ctx, spec, spec.plan(), actorNodes, resources);
    List<Dispatcher> ds = new ArrayList<>();
    for (DispatchSpec d : spec.dispatches()) {
      ds.add(dispatcher(spec.actorId(), chain.schema(), d, actorNodes));
    }
    ExecutorInfo info = new ExecutorInfo(spec.actorId(), DISPATCH_EXECUTOR_ID, "Dispatch");
    DispatchExecutor dispatch =
        new DispatchExecutor(
            info, metrics.countIn(chain, info.name()), ds, registry::removeChannel);
    return new Built(CheckedExecutor.wrap(dispatch), dispatch, resources, ctx.inputBell());
  }

  /**
   * Creates the channels and dispatcher for a new output of running actor {@code upstream} (whose
   * output schema is {@code schema}), to be attached by its dispatch executor at the new actors'
   * {@code Add} barrier.
   */
  Dispatcher newOutput(int upstream, Schema schema, DispatchSpec d, Map<Integer, String> nodes) {
    return dispatcher(upstream, schema, d, nodes);
  }

  private Executor buildNode(
      ExecutorBuildContext ctx,
      ActorSpec spec,
      StreamPlanNode node,
      Map<Integer, String> nodes,
      List<AutoCloseable> resources) {
    if (node.node() instanceof StreamNode.Merge merge) {
      List<Integer> ups = spec.upstreamActors().get(merge.upstreamFragmentId());
      Checks.checkArgument(
          ups != null && !ups.isEmpty(),
          "actor %s: merge of fragment %s has no upstream actors",
          spec.actorId(),
          merge.upstreamFragmentId());
      List<InputChannel> inputs = new ArrayList<>();
      for (int up : ups) {
        inputs.add(input(up, spec.actorId(), nodes));
      }
      return metrics.countOut(
          CheckedExecutor.wrap(
              new MergeExecutor(ctx.infoOf(node), node.outputSchema(), inputs, ctx.inputBell())));
    }
    List<Executor> inputs = new ArrayList<>();
    for (StreamPlanNode in : node.inputs()) {
      inputs.add(
          metrics.countIn(buildNode(ctx, spec, in, nodes, resources), node.node().kindName()));
    }
    if (node.node() instanceof StreamNode.StreamScan scan) {
      Checks.checkArgument(
          scan.upstreamTable() != null,
          "actor %s: StreamScan of table %s carries no upstream table layout",
          spec.actorId(),
          scan.upstreamTableId());
      inputs.add(
          liveUpstream(
              ctx,
              spec,
              node,
              scan.upstreamTable().schema(),
              "table " + scan.upstreamTableId(),
              nodes));
    } else if (node.node() instanceof dev.tideway.common.plan.SourceBackfillNode sb) {
      inputs.add(liveUpstream(ctx, spec, node, sb.schema(), "source " + sb.sourceId(), nodes));
    }
    Executor e = builders.forKind(node.node().getClass()).build(ctx, node, inputs);
    if (e instanceof AutoCloseable c) {
      resources.add(c);
    }
    return metrics.countOut(CheckedExecutor.wrap(e));
  }

  /**
   * The live input of a {@code StreamScan} or {@code SourceBackfill}: a merge of the upstream job's
   * actors feeding this actor (the upstream fragment no {@code Merge} leaf of the plan reads),
   * emitting the upstream's full rows ({@code schema}).
   */
  private Executor liveUpstream(
      ExecutorBuildContext ctx,
      ActorSpec spec,
      StreamPlanNode node,
      dev.tideway.common.types.Schema schema,
      String what,
      Map<Integer, String> nodes) {
    Set<Integer> merged = new HashSet<>();
    collectMerges(spec.plan(), merged);
    List<InputChannel> inputs = new ArrayList<>();
    spec.upstreamActors()
        .forEach(
            (fragment, ups) -> {
              if (!merged.contains(fragment)) {
                ups.forEach(up -> inputs.add(input(up, spec.actorId(), nodes)));
              }
            });
    Checks.checkArgument(
        !inputs.isEmpty(), "actor %s: the scan of %s has no upstream actors", spec.actorId(), what);
    // not wrapped in checks: the backfill polls it (PollableExecutor) instead of pumping it
    // through a thread, and checks the stream it emits itself
    return new MergeExecutor(ctx.infoOf(node), schema, inputs);
  }

  private static void collectMerges(StreamPlanNode n, Set<Integer> out) {
    if (n.node() instanceof StreamNode.Merge m) {
      out.add(m.upstreamFragmentId());
    }
    n.inputs().forEach(in -> collectMerges(in, out));
  }

  private InputChannel input(int upstream, int downstream, Map<Integer, String> nodes) {
    long ch = ChannelId.of(upstream, downstream);
    String peer = nodeOf(upstream, nodes);
    if (peer.equals(selfAddress)) {
      return registry.local(ch, config.channelCapacity());
    }
    ActorRef<ExchangeMessage> upstreamEndpoint = endpointOf.apply(peer);
    RemoteInput in = registry.remoteInput(ch, c -> new RemoteInput(c, config.creditWindow()));
    in.bindCredits(upstreamEndpoint::tell);
    return in;
  }

  private OutputChannel output(int upstream, int downstream, Map<Integer, String> nodes) {
    long ch = ChannelId.of(upstream, downstream);
    String peer = nodeOf(downstream, nodes);
    if (peer.equals(selfAddress)) {
      return registry.local(ch, config.channelCapacity());
    }
    ActorRef<ExchangeMessage> endpoint = endpointOf.apply(peer);
    RemoteOutput out =
        new RemoteOutput(
            ch,
            config.creditWindow(),
            config.batchRows(),
            config.frameBytes(),
            config.stallTimeoutMs(),
            endpoint::tell);
    registry.addRemoteOutput(out);
    return out;
  }

  private Dispatcher dispatcher(
      int upstream, Schema schema, DispatchSpec d, Map<Integer, String> nodes) {
    List<OutputChannel> outs = new ArrayList<>();
    for (int down : d.downstreamActors()) {
      outs.add(output(upstream, down, nodes));
    }
    if (d.kind() == DispatcherKind.HASH) {
      int[] owners = d.vnodeOwners().stream().mapToInt(Integer::intValue).toArray();
      int[] keys = d.distKeys().stream().mapToInt(Integer::intValue).toArray();
      return new HashDispatcher(outs, owners, schema.types(), keys);
    }
    if (d.kind() == DispatcherKind.BROADCAST) {
      return new BroadcastDispatcher(outs);
    }
    return new SimpleDispatcher(outs.get(0));
  }

  private String nodeOf(int actorId, Map<Integer, String> nodes) {
    String n = nodes.get(actorId);
    Checks.checkArgument(n != null, "no node address for actor %s", actorId);
    return n;
  }
}
