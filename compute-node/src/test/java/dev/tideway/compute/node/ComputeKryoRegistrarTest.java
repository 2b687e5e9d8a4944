package dev.tideway.compute.node;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.barrier.control.BarrierCompleted;
import dev.tideway.barrier.control.InjectBarrier;
import dev.tideway.barrier.control.NodeFailure;
import dev.tideway.barrier.control.TableStatsDelta;
import dev.tideway.barrier.epoch.EpochPair;
import dev.tideway.barrier.message.Barrier;
import dev.tideway.barrier.message.BarrierKind;
import dev.tideway.barrier.message.Message;
import dev.tideway.barrier.message.Mutation;
import dev.tideway.barrier.message.Watermark;
import dev.tideway.barrier.progress.ProgressBatch;
import dev.tideway.common.chunk.Chunks;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.serde.KryoIdRange;
import dev.tideway.common.serde.KryoRegistrations;
import dev.tideway.common.serde.TidewayKryo;
import dev.tideway.common.types.DataType;
import dev.tideway.compute.actor.TestBarriers;
import dev.tideway.compute.exchange.ChannelId;
import dev.tideway.compute.exchange.ExchangeMessage;
import dev.tideway.protocol.compute.ComputeEvent;
import dev.tideway.protocol.compute.ComputeRequest;
import dev.tideway.protocol.compute.DispatchSpec;
import dev.tideway.storage.api.CompactionJob;
import dev.tideway.storage.api.CompactionOutcome;
import dev.tideway.storage.api.SstInfo;
import dev.tideway.storage.api.TableStats;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Every message the node puts on the wire survives the cluster's Kryo registry (found through the
 * ServiceLoader entry, as a node finds it), and every class registered in the node's range has a
 * sample here.
 */
class ComputeKryoRegistrarTest {
  private final TidewayKryo kryo = TidewayKryo.create();

  private Object roundTrip(Object o) {
    return kryo.deserialize(kryo.serialize(o));
  }

  @Test
  void exchangeFramesRoundTripWithChunksBarriersAndWatermarks() {
    StreamChunk chunk = Chunks.parse("bigint varchar\n+ 1 a\n- 2 .\nU- 3 x\nU+ 3 y\n");
    BitSet vnodes = new BitSet();
    vnodes.set(3, 99);
    Barrier update =
        new Barrier(
            new EpochPair(TestBarriers.epoch(5), TestBarriers.epoch(4)),
            BarrierKind.CHECKPOINT,
            new Mutation.Update(Map.of(1, List.of(2, 3)), Map.of(7, vnodes)));
    ExchangeMessage.Frame f =
        new ExchangeMessage.Frame(
            ChannelId.of(1, 2),
            7,
            List.of(
                TestBarriers.barrier(1),
                Message.of(chunk),
                new Watermark(0, DataType.BIGINT, 5L),
                update,
                TestBarriers.stop(6, 1, 2)));
    ExchangeMessage.Frame back = (ExchangeMessage.Frame) roundTrip(f);
    assertThat(back.channel()).isEqualTo(f.channel());
    assertThat(back.seq()).isEqualTo(7);
    assertThat(back.messages()).isEqualTo(f.messages());
    assertThat(((Barrier) back.messages().get(3)).mutation()).isEqualTo(update.mutation());
    assertThat(roundTrip(new ExchangeMessage.Credit(ChannelId.of(1, 2), 8)))
        .isEqualTo(new ExchangeMessage.Credit(ChannelId.of(1, 2), 8));
  }

  @Test
  void controlMessagesAndEventsRoundTrip() {
    List<Object> samples =
        List.of(
            TestJob.source(1, List.of(11, 12), 2, 3),
            TestJob.sink(11, List.of(1, 2)),
            new Mutation.Add(Set.of(1, 2), Map.of(2, List.of(1)), Map.of(1, List.of("s")), true),
            new Mutation.Pause(),
            new Mutation.Resume(),
            new Mutation.Throttle(Map.of(1, 100L)),
            new ComputeEvent.Ack(1, 9),
            new ComputeEvent.CommandFailed(1, 9, "actor 3: no builder"),
            new ComputeEvent.Failed(new NodeFailure(2, 0, 5, "actor 5 failed", List.of(3L))));
    for (Object s : samples) {
      assertThat(roundTrip(s)).as(s.getClass().getSimpleName()).isEqualTo(s);
    }
    InjectBarrier inject =
        new InjectBarrier(
            1, 0, TestBarriers.barrier(2), new int[] {1}, new int[] {1, 11}, new int[0]);
    InjectBarrier injectBack = (InjectBarrier) roundTrip(inject);
    assertThat(injectBack.barrier()).isEqualTo(inject.barrier());
    assertThat(injectBack.actorsToCollect()).containsExactly(1, 11);

    ProgressBatch progress = new ProgressBatch(2);
    progress.add(4, (byte) 1, 10L, 500L);
    BarrierCompleted<Object> done =
        new BarrierCompleted<>(
            1,
            0,
            new EpochPair(TestBarriers.epoch(2), TestBarriers.epoch(1)),
            BarrierKind.CHECKPOINT,
            List.of(),
            List.of(new TableStatsDelta(100, 5, 5, true)),
            progress);
    var back = ((ComputeEvent.Completed) roundTrip(new ComputeEvent.Completed(done))).completed();
    assertThat(back.epoch()).isEqualTo(done.epoch());
    assertThat(back.statsDeltas()).isEqualTo(done.statsDeltas());
    assertThat(back.progress().size()).isEqualTo(1);
    assertThat(back.progress().rows(0)).isEqualTo(500L);
  }

  @Test
  void dmlAndCompactionMessagesRoundTrip() {
    SstInfo sst =
        new SstInfo(
            42,
            1000,
            7,
            new byte[] {0, 0, 0, 5},
            new byte[] {0, 0, 0, 6},
            TestBarriers.epoch(1),
            TestBarriers.epoch(2),
            10,
            1,
            Map.of(5, new TableStats(10, 100, 200, 0)));
    CompactionJob job = new CompactionJob(Map.of(0, List.of(sst)), 1, true, 99L, Map.of(5, 3L));
    CompactionJob jobBack = (CompactionJob) roundTrip(job);
    assertThat(jobBack.targetLevel()).isEqualTo(1);
    assertThat(jobBack.bottom()).isTrue();
    assertThat(jobBack.changeLogs()).isEqualTo(job.changeLogs());
    SstInfo sstBack = jobBack.inputs().get(0).get(0);
    assertThat(sstBack.id()).isEqualTo(42);
    assertThat(sstBack.minKey()).containsExactly(0, 0, 0, 5);
    assertThat(sstBack.tableStats()).isEqualTo(sst.tableStats());

    CompactionOutcome outcome =
        new CompactionOutcome(
            List.of(
                new CompactionOutcome.LevelEdit(0, List.of(42L), List.of()),
                new CompactionOutcome.LevelEdit(1, List.of(), List.of())),
            Map.of(5, new TableStats(-1, -20, -30, 0)),
            99L,
            1000,
            500,
            1,
            10);
    List<Object> samples =
        List.of(
            new ComputeEvent.DmlWritten(2, 17, 300, 5L << 32, 123_456L << 16),
            new ComputeEvent.Compacted(1, 18, outcome));
    for (Object s : samples) {
      assertThat(roundTrip(s)).as(s.getClass().getSimpleName()).isEqualTo(s);
    }
    var dml =
        new ComputeRequest.WriteDml(
            9, 300, 4, Chunks.parse("bigint bigint\n- 1 2\n+ 3 .\nU- 4 5\nU+ 4 6"), null);
    var dmlBack = (ComputeRequest.WriteDml) roundTrip(dml);
    assertThat(dmlBack.actorId()).isEqualTo(4);
    assertThat(dmlBack.chunk()).isEqualTo(dml.chunk());
    var compact = (ComputeRequest.Compact) roundTrip(new ComputeRequest.Compact(10, job, null));
    assertThat(compact.job().inputs().get(0).get(0).id()).isEqualTo(42);
    var build =
        new ComputeRequest.BuildActors(
            11,
            List.of(TestJob.sink(11, List.of(1))),
            Map.of(11, "pekko://tideway@127.0.0.1:1"),
            Map.of(1, List.of(DispatchSpec.hashRoundRobin(List.of(0), List.of(11)))),
            null);
    assertThat(((ComputeRequest.BuildActors) roundTrip(build)).newOutputs())
        .isEqualTo(build.newOutputs());
  }

  @Test
  void theNodeOwnsOnlyIdsInItsRange() {
    List<KryoRegistrations.Entry> mine =
        kryo.registrations().stream()
            .filter(e -> e.owner() instanceof ComputeKryoRegistrar)
            .toList();
    assertThat(mine).isNotEmpty();
    assertThat(mine).allMatch(e -> KryoIdRange.COMPUTE_NODE.contains(e.id()));
  }
}
