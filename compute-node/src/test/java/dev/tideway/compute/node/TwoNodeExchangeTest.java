package dev.tideway.compute.node;

import static dev.tideway.compute.actor.TestBarriers.barrier;
import static dev.tideway.compute.actor.TestBarriers.epoch;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.barrier.control.InjectBarrier;
import dev.tideway.barrier.message.Barrier;
import dev.tideway.common.row.Row;
import dev.tideway.common.time.Clock;
import dev.tideway.common.types.DataType;
import dev.tideway.common.vnode.VirtualNode;
import dev.tideway.compute.actor.TestBarriers;
import dev.tideway.compute.exchange.RemoteInput;
import dev.tideway.protocol.compute.ComputeEvent;
import dev.tideway.protocol.compute.ComputeRequest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The correctness test: two compute nodes run a two-fragment job with a hash exchange.
 * Source actors 1 (node A) and 2 (node B) hash-dispatch to sink actors 11 (A) and 12 (B), so the
 * job uses both local and remote channels. A test driver injects barriers as meta would.
 */
@ExtendWith(TwoNodeCluster.Shared.class)
class TwoNodeExchangeTest {
  private static TwoNodeCluster cluster;
  private static long generation;
  private static int epochBase;

  @BeforeAll
  static void start() {
    cluster = TwoNodeCluster.Shared.cluster();
  }

  /**
   * Every test starts as after a recovery: both nodes reset to a new generation, and the test's
   * epochs continue above the previous test's.
   */
  @BeforeEach
  void resetNodesAndClearSinks() throws Exception {
    cluster.reset();
    generation = cluster.generation;
    epochBase = cluster.epochBase;
    TestJob.sinkSleepMsPerChunk = 0;
    TestJob.ROW_EPOCH.clear();
    TestJob.SINK_ROWS.clear();
    TestJob.SOURCES.clear();
  }

  private static Map<Integer, String> placement() {
    return Map.of(
        1,
        cluster.a.address(),
        11,
        cluster.a.address(),
        2,
        cluster.b.address(),
        12,
        cluster.b.address());
  }

  private static void build(int chunks, int rows) throws Exception {
    build(chunks, chunks, rows);
  }

  /** Source 1 emits {@code chunks1} and source 2 {@code chunks2} chunks per epoch. */
  private static void build(int chunks1, int chunks2, int rows) throws Exception {
    long ra = cluster.nextRequestId();
    long rb = cluster.nextRequestId();
    cluster.controlA.tell(
        new ComputeRequest.BuildActors(
            ra,
            List.of(
                TestJob.source(1, List.of(11, 12), chunks1, rows), TestJob.sink(11, List.of(1, 2))),
            placement(),
            cluster.meta));
    cluster.controlB.tell(
        new ComputeRequest.BuildActors(
            rb,
            List.of(
                TestJob.source(2, List.of(11, 12), chunks2, rows), TestJob.sink(12, List.of(1, 2))),
            placement(),
            cluster.meta));
    Set<ComputeEvent> acks = Set.of(cluster.take(), cluster.take());
    assertThat(acks)
        .containsExactlyInAnyOrder(new ComputeEvent.Ack(1, ra), new ComputeEvent.Ack(2, rb));
  }

  private static void inject(long generation, Barrier b) {
    cluster.controlA.tell(
        new ComputeRequest.Inject(
            new InjectBarrier(1, generation, b, new int[] {1}, new int[] {1, 11}, new int[0]),
            cluster.meta));
    cluster.controlB.tell(
        new ComputeRequest.Inject(
            new InjectBarrier(2, generation, b, new int[] {2}, new int[] {2, 12}, new int[0]),
            cluster.meta));
  }

  @Test
  void aHashExchangeAcrossTwoNodesDeliversExactlyTheExpectedRowsAndCompletesBarriersInOrder()
      throws Exception {
    int chunks = 5;
    int rows = 40;
    int barriers = 8;
    build(chunks, rows);
    for (int i = 1; i < barriers; i++) {
      inject(generation, barrier(epochBase, i));
    }
    inject(generation, TestBarriers.stopAfter(epochBase, barriers, 1, 2, 11, 12));

    Map<Integer, List<Long>> completedByNode = new HashMap<>();
    for (int n = 0; n < 2 * barriers; n++) {
      ComputeEvent e = cluster.take();
      assertThat(e).isInstanceOf(ComputeEvent.Completed.class);
      var c = ((ComputeEvent.Completed) e).completed();
      completedByNode.computeIfAbsent(c.nodeId(), k -> new ArrayList<>()).add(c.epoch().curr());
      // the node's source reported its rows before yielding the barrier: it travels with the epoch
      int sourceActor = c.nodeId();
      long epochIndex = (c.epoch().curr() >> 16) - epochBase;
      // then, with a checkpoint, the node's own reports (heap, compactions)
      assertThat(c.progress().size())
          .as("progress in %s", c)
          .isEqualTo(c.kind() == dev.tideway.barrier.message.BarrierKind.CHECKPOINT ? 5 : 1);
      assertThat(c.progress().actorId(0)).isEqualTo(sourceActor);
      for (int i = 1; i < c.progress().size(); i++) {
        assertThat(dev.tideway.barrier.progress.NodeReport.isNodeReport(c.progress().code(i)))
            .isTrue();
        assertThat(c.progress().actorId(i)).as("the node's own id").isEqualTo(c.nodeId());
      }
      assertThat(c.progress().rows(0)).isEqualTo((epochIndex - 1) * chunks * rows);
    }
    List<Long> expectedEpochs = new ArrayList<>();
    for (int i = 1; i <= barriers; i++) {
      expectedEpochs.add(epoch(epochBase + i));
    }
    assertThat(completedByNode.get(1)).as("node 1 completes in order").isEqualTo(expectedEpochs);
    assertThat(completedByNode.get(2)).as("node 2 completes in order").isEqualTo(expectedEpochs);

    // Each source emits chunks x rows after each of the first (barriers - 1) barriers.
    long perSource = (long) (barriers - 1) * chunks * rows;
    Set<Row> expected = new HashSet<>();
    for (long k = 0; k < 2 * perSource; k++) {
      expected.add(Row.of(k, k * 10));
    }
    List<Row> at11 = TestJob.SINK_ROWS.get(11);
    List<Row> at12 = TestJob.SINK_ROWS.get(12);
    List<Row> all = new ArrayList<>(at11);
    all.addAll(at12);
    assertThat(all).hasSize(expected.size());
    assertThat(new HashSet<>(all)).isEqualTo(expected);
    assertThat(at11).allMatch(r -> vnode(r) % 2 == 0, "sink 11 holds the even vnodes");
    assertThat(at12).allMatch(r -> vnode(r) % 2 == 1, "sink 12 holds the odd vnodes");
  }

  @Test
  void aNodeThatMissedTheResetToAGenerationAsksForOneInThatGeneration() throws Exception {
    // meta moved on to a generation it never reset node 1 to (node 1 joined after that reset):
    // node 1 must report in the new generation's terms, or meta drops it as stale
    long missed = generation + 1;
    Barrier b = barrier(epochBase, 1);
    for (int i = 0; i < 3; i++) {
      cluster.controlA.tell(
          new ComputeRequest.Inject(
              new InjectBarrier(1, missed, b, new int[] {1}, new int[] {1}, new int[0]),
              cluster.meta));
    }
    ComputeEvent e = cluster.take();
    assertThat(e).isInstanceOf(ComputeEvent.Failed.class);
    var f = ((ComputeEvent.Failed) e).failure();
    assertThat(f.nodeId()).isEqualTo(1);
    assertThat(f.generation()).isEqualTo(missed);
    assertThat(f.reason()).contains("was not reset to generation " + missed);
    assertThat(cluster.poll(300)).as("one report per generation").isNull();
  }

  @Test
  void aCrashedActorIsReportedWithItsIdAndTheInFlightEpochFails() throws Exception {
    build(2, 10);
    inject(generation, barrier(epochBase, 1));
    inject(generation, barrier(epochBase, 2));
    for (int n = 0; n < 4; n++) {
      assertThat(cluster.take()).isInstanceOf(ComputeEvent.Completed.class);
    }
    TestJob.SOURCES.get(2).failAtBarrier(epoch(epochBase + 3));
    inject(generation, barrier(epochBase, 3));

    ComputeEvent e = cluster.take();
    assertThat(e).isInstanceOf(ComputeEvent.Failed.class);
    var f = ((ComputeEvent.Failed) e).failure();
    assertThat(f.nodeId()).isEqualTo(2);
    assertThat(f.actorId()).isEqualTo(2);
    assertThat(f.reason()).contains("actor 2");
    assertThat(f.failedEpochs()).containsExactly(epoch(epochBase + 3));
    assertThat(cluster.poll(300)).as("node 1 cannot complete epoch 3 without actor 2").isNull();

    // Recovery (the next test's reset) drops every actor, including the ones still waiting.
  }

  @Test
  void skewedSourcesAlignAcrossNodesWhileASlowSinkKeepsRemoteQueuesWithinTheWindow()
      throws Exception {
    int rows = 16;
    int slowChunks = 1;
    int fastChunks = 30;
    int barriers = 6;
    TestJob.sinkSleepMsPerChunk = 1;
    build(slowChunks, fastChunks, rows);
    List<RemoteInput> remote = new ArrayList<>(cluster.a.exchange().remoteInputs());
    remote.addAll(cluster.b.exchange().remoteInputs());
    assertThat(remote).as("1->12 and 2->11 cross nodes").hasSize(2);

    long[] injectedNs = new long[barriers + 1];
    for (int i = 1; i < barriers; i++) {
      injectedNs[i] = Clock.system().nanoTime();
      inject(generation, barrier(epochBase, i));
    }
    injectedNs[barriers] = Clock.system().nanoTime();
    inject(generation, TestBarriers.stopAfter(epochBase, barriers, 1, 2, 11, 12));
    long maxLatencyMs = 0;
    for (int n = 0; n < 2 * barriers; n++) {
      var c = ((ComputeEvent.Completed) cluster.take()).completed();
      int i = (int) (c.epoch().curr() >> 16) - epochBase;
      maxLatencyMs =
          Math.max(maxLatencyMs, (Clock.system().nanoTime() - injectedNs[i]) / 1_000_000);
    }

    // Row k comes from source (k % 2) + 1 as its (k / 2)-th row; it was emitted after barrier
    // 1 + n / rowsPerEpoch of its source and must reach the sink after exactly that many barriers.
    assertThat(TestJob.ROW_EPOCH).hasSize((barriers - 1) * (slowChunks + fastChunks) * rows);
    TestJob.ROW_EPOCH.forEach(
        (row, seen) -> {
          long k = (Long) row.get(0);
          int perEpoch = (k % 2 == 0 ? slowChunks : fastChunks) * rows;
          assertThat(seen).as("barriers before row %s", k).isEqualTo((int) (k / 2) / perEpoch + 1);
        });
    for (RemoteInput in : remote) {
      assertThat(in.maxQueuedFrames())
          .as("frames queued on %s", in)
          .isBetween(1, cluster.a.config().creditWindow());
    }
    assertThat(maxLatencyMs).as("barrier latency while data flows (ms)").isLessThan(20_000);
  }

  private static int vnode(Row r) {
    return VirtualNode.of(List.of(DataType.BIGINT), Row.of(r.get(0)));
  }
}
