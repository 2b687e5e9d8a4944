package dev.tideway.compute.node;

import static dev.tideway.compute.actor.TestBarriers.epoch;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.barrier.control.InjectBarrier;
import dev.tideway.barrier.epoch.EpochPair;
import dev.tideway.barrier.message.Barrier;
import dev.tideway.barrier.message.BarrierKind;
import dev.tideway.barrier.message.Mutation;
import dev.tideway.common.plan.DispatcherKind;
import dev.tideway.common.plan.StreamNode;
import dev.tideway.common.plan.StreamPlanNode;
import dev.tideway.common.row.Row;
import dev.tideway.common.types.DataType;
import dev.tideway.compute.exchange.ChannelId;
import dev.tideway.protocol.compute.ActorSpec;
import dev.tideway.protocol.compute.ComputeEvent;
import dev.tideway.protocol.compute.ComputeRequest;
import dev.tideway.protocol.compute.DispatchSpec;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A materialized view attached to a running table: table actor 41 (node A, {@code Dml →
 * Materialize} with no dispatcher) gains two outputs while rows flow, one to actor 42 on the same
 * node (local channel) and one to actor 43 on node B (remote channel), through {@code
 * BuildActors.newOutputs} and the {@code Add} barrier; later a {@code Stop} removes them and the
 * table keeps running.
 */
@ExtendWith(TwoNodeCluster.Shared.class)
class AddOutputNodeTest {
  static final int TABLE_ACTOR = 41;
  static final int LOCAL_MV = 42;
  static final int REMOTE_MV = 43;
  static final int TABLE_FRAGMENT = 40;

  private static TwoNodeCluster cluster;

  @BeforeAll
  static void start() {
    cluster = TwoNodeCluster.Shared.cluster();
  }

  @BeforeEach
  void reset() throws Exception {
    cluster.reset();
    TestJob.ROW_EPOCH.clear();
    TestJob.SINK_ROWS.clear();
    TestJob.FIRST_MESSAGE.clear();
  }

  private static Map<Integer, String> placement() {
    return Map.of(
        TABLE_ACTOR,
        cluster.a.address(),
        LOCAL_MV,
        cluster.a.address(),
        REMOTE_MV,
        cluster.b.address());
  }

  /** A view's actor: merge the table fragment's output into a collecting sink. */
  private static ActorSpec mv(int actorId) {
    StreamPlanNode merge =
        StreamPlanNode.leaf(
            1, new StreamNode.Merge(TABLE_FRAGMENT, DispatcherKind.SIMPLE), TestJob.SCHEMA);
    StreamPlanNode plan =
        StreamPlanNode.unary(
            2, new StreamNode.Materialize(TestJob.table(500 + actorId)), merge, TestJob.SCHEMA);
    return new ActorSpec(
        actorId,
        50 + actorId,
        plan,
        TestJob.allVnodes(),
        Map.of(TABLE_FRAGMENT, List.of(TABLE_ACTOR)),
        List.of(),
        List.of());
  }

  private static DispatchSpec simpleTo(int actor) {
    return new DispatchSpec(DispatcherKind.SIMPLE, List.of(), List.of(actor), List.of());
  }

  private static Barrier barrier(int i, Mutation m) {
    return new Barrier(
        new EpochPair(epoch(cluster.epochBase + i), epoch(cluster.epochBase + i - 1)),
        i == 1 ? BarrierKind.INITIAL : BarrierKind.CHECKPOINT,
        m);
  }

  /** Injects barrier {@code i}; node A collects {@code collectA}, node B {@code collectB}. */
  private static void inject(int i, Mutation m, int[] collectA, int[] collectB) throws Exception {
    Barrier b = barrier(i, m);
    cluster.controlA.tell(
        new ComputeRequest.Inject(
            new InjectBarrier(
                1, cluster.generation, b, new int[] {TABLE_ACTOR}, collectA, new int[0]),
            cluster.meta));
    int expected = 1;
    if (collectB.length > 0) {
      cluster.controlB.tell(
          new ComputeRequest.Inject(
              new InjectBarrier(2, cluster.generation, b, new int[0], collectB, new int[0]),
              cluster.meta));
      expected = 2;
    }
    for (int n = 0; n < expected; n++) {
      assertThat(cluster.take())
          .as("completion of barrier %s", i)
          .isInstanceOf(ComputeEvent.Completed.class);
    }
  }

  private static void write(long from, long to) throws Exception {
    List<Row> rows = new ArrayList<>();
    for (long k = from; k < to; k++) {
      rows.add(Row.of(k, k * 10));
    }
    cluster.controlA.tell(
        new ComputeRequest.WriteDml(
            cluster.nextRequestId(),
            400,
            TABLE_ACTOR,
            DmlNodeTest.inserts(List.of(DataType.BIGINT, DataType.BIGINT), rows),
            cluster.meta));
    assertThat(cluster.take()).isInstanceOf(ComputeEvent.DmlWritten.class);
  }

  private static Set<Row> rows(long from, long to) {
    Set<Row> out = new HashSet<>();
    for (long k = from; k < to; k++) {
      out.add(Row.of(k, k * 10));
    }
    return out;
  }

  private static void ack() throws Exception {
    ComputeEvent e = cluster.take();
    assertThat(e).as("build answer").isInstanceOf(ComputeEvent.Ack.class);
  }

  @Test
  void aNewDownstreamActorStartsWithTheAddBarrierAndGetsEveryLaterRowUntilItIsStopped()
      throws Exception {
    int[] tableOnly = {TABLE_ACTOR};
    ActorSpec table =
        new ActorSpec(
            TABLE_ACTOR,
            TABLE_FRAGMENT,
            DmlNodeTest.tablePlan(TestJob.table(400)),
            TestJob.allVnodes(),
            Map.of(),
            List.of(),
            List.of());
    cluster.controlA.tell(
        new ComputeRequest.BuildActors(
            cluster.nextRequestId(), List.of(table), placement(), cluster.meta));
    ack();
    inject(1, null, tableOnly, new int[0]);
    write(0, 50);
    inject(2, null, tableOnly, new int[0]);

    // CREATE MATERIALIZED VIEW x2 on the table: build the views' actors and the table's outputs
    cluster.controlA.tell(
        new ComputeRequest.BuildActors(
            cluster.nextRequestId(),
            List.of(mv(LOCAL_MV)),
            placement(),
            Map.of(TABLE_ACTOR, List.of(simpleTo(LOCAL_MV), simpleTo(REMOTE_MV))),
            cluster.meta));
    ack();
    cluster.controlB.tell(
        new ComputeRequest.BuildActors(
            cluster.nextRequestId(), List.of(mv(REMOTE_MV)), placement(), cluster.meta));
    ack();
    write(50, 100); // before the Add barrier: the table's, not the views'
    Mutation.Add add =
        new Mutation.Add(
            Set.of(LOCAL_MV, REMOTE_MV),
            Map.of(LOCAL_MV, List.of(TABLE_ACTOR), REMOTE_MV, List.of(TABLE_ACTOR)),
            Map.of(),
            false);
    int[] withLocal = {TABLE_ACTOR, LOCAL_MV};
    int[] remote = {REMOTE_MV};
    inject(3, add, withLocal, remote);
    write(100, 150);
    inject(4, null, withLocal, remote);

    for (int mv : List.of(LOCAL_MV, REMOTE_MV)) {
      assertThat(TestJob.FIRST_MESSAGE.get(mv))
          .as("first message of view actor %s is the Add barrier", mv)
          .isEqualTo(epoch(cluster.epochBase + 3));
      assertThat(new HashSet<>(TestJob.SINK_ROWS.get(mv)))
          .as("rows of view actor %s", mv)
          .isEqualTo(rows(100, 150));
    }

    inject(5, new Mutation.Stop(Set.of(LOCAL_MV, REMOTE_MV)), withLocal, remote);
    write(150, 200);
    inject(6, null, tableOnly, new int[0]);
    inject(7, null, tableOnly, new int[0]);

    assertThat(new HashSet<>(TestJob.SINK_ROWS.get(TABLE_ACTOR))).isEqualTo(rows(0, 200));
    assertThat(TestJob.SINK_ROWS.get(LOCAL_MV)).hasSize(50);
    assertThat(TestJob.SINK_ROWS.get(REMOTE_MV)).hasSize(50);
    assertThat(cluster.a.exchange().remoteOutputs())
        .as("the output to the stopped remote view is gone")
        .isEmpty();
    assertThat(cluster.a.exchange().localChannels())
        .noneMatch(c -> ChannelId.downstream(c.channel()) == LOCAL_MV);
  }

  @Test
  void outputsCanOnlyBeAddedToAnActorRunningHere() throws Exception {
    cluster.controlB.tell(
        new ComputeRequest.BuildActors(
            cluster.nextRequestId(),
            List.of(),
            placement(),
            Map.of(TABLE_ACTOR, List.of(simpleTo(REMOTE_MV))),
            cluster.meta));
    ComputeEvent e = cluster.take();
    assertThat(e).isInstanceOf(ComputeEvent.CommandFailed.class);
    assertThat(((ComputeEvent.CommandFailed) e).reason())
        .contains("cannot add outputs", "to actor 41", "not running here");
  }
}
