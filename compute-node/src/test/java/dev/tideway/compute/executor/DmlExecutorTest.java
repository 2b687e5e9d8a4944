package dev.tideway.compute.executor;

import static dev.tideway.compute.testing.Drain.chunk;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tideway.barrier.executor.ExecutorInfo;
import dev.tideway.barrier.message.Message;
import dev.tideway.common.chunk.Op;
import dev.tideway.common.chunk.StreamChunk.OpRow;
import dev.tideway.common.row.Row;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Schema;
import dev.tideway.common.vnode.VirtualNode;
import dev.tideway.common.vnode.VnodeBitmap;
import dev.tideway.compute.actor.BarrierInbox;
import dev.tideway.compute.actor.TestBarriers;
import dev.tideway.compute.testing.Drain;
import dev.tideway.compute.testing.MockSource;
import dev.tideway.protocol.compute.DmlBatch;
import dev.tideway.protocol.compute.DmlRouter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class DmlExecutorTest {
  static final ExecutorInfo INFO = new ExecutorInfo(1, 5, "Dml");
  static final int TABLE = 7;

  @Test
  void batchesBecomeChunksAfterTheFirstBarrierInOrder() throws Exception {
    MockSource barriers = MockSource.of("bigint", "varchar");
    barriers.pushBarrier(1).pushBarrier(2);
    DmlChannel channel = new DmlChannel(TABLE, 4);
    channel.send(
        DmlBatch.insert(TABLE, List.of(Row.of(1L, "a"), Row.of(2L, "b"), Row.of(3L, "c"))), 0);
    channel.send(
        new DmlBatch(
            TABLE,
            List.of(
                new OpRow(Op.UPDATE_DELETE, Row.of(1L, "a")),
                new OpRow(Op.UPDATE_INSERT, Row.of(1L, "z")),
                new OpRow(Op.DELETE, Row.of(2L, "b")))),
        0);
    DmlExecutor dml = new DmlExecutor(INFO, barriers, channel, new int[] {0}, VnodeBitmap.ALL, 2);
    assertThat(Drain.pretty(Drain.all(dml)))
        .containsExactly(
            "B1",
            chunk("bigint varchar\n+ 1 a\n+ 2 b"),
            chunk("bigint varchar\n+ 3 c"),
            chunk("bigint varchar\nU- 1 a\nU+ 1 z"),
            chunk("bigint varchar\n- 2 b"),
            "B2");
  }

  @Test
  void anUpdatePairIsNeverCutAcrossChunks() throws Exception {
    MockSource barriers = MockSource.of("bigint");
    barriers.pushBarrier(1);
    DmlChannel channel = new DmlChannel(TABLE, 1);
    channel.send(
        new DmlBatch(
            TABLE,
            List.of(
                new OpRow(Op.UPDATE_DELETE, Row.of(1L)), new OpRow(Op.UPDATE_INSERT, Row.of(2L)))),
        0);
    DmlExecutor dml = new DmlExecutor(INFO, barriers, channel, new int[] {0}, VnodeBitmap.ALL, 1);
    assertThat(Drain.pretty(Drain.all(dml))).containsExactly("B1", chunk("bigint\nU- 1\nU+ 2"));
  }

  @Test
  void aRowOfAnotherActorsVnodeIsRejected() throws Exception {
    MockSource barriers = MockSource.of("bigint");
    barriers.pushBarrier(1);
    DmlChannel channel = new DmlChannel(TABLE, 1);
    Row row = Row.of(42L);
    int vnode = VirtualNode.of(List.of(DataType.BIGINT), row);
    channel.send(DmlBatch.insert(TABLE, List.of(row)), 0);
    DmlExecutor dml =
        new DmlExecutor(
            INFO,
            barriers,
            channel,
            new int[] {0},
            VnodeBitmap.ALL.minus(VnodeBitmap.of(vnode)),
            8);
    assertThatThrownBy(() -> Drain.all(dml))
        .hasMessageContaining("hashes to vnode " + vnode + ", which this actor does not own");
  }

  @Test
  void theRouterSendsEachRowToItsVnodesOwnerAndSplitsCrossActorUpdates() {
    List<VnodeBitmap> halves = VnodeBitmap.split(2);
    int[] owner = new int[VirtualNode.COUNT];
    for (int v = 0; v < owner.length; v++) {
      owner[v] = halves.get(0).contains(v) ? 100 : 200;
    }
    // find two keys on different actors
    long a = 0;
    long b = 1;
    while (owner[vnodeOf(b)] == owner[vnodeOf(a)]) {
      b++;
    }
    DmlRouter router = new DmlRouter(List.of(DataType.BIGINT), new int[] {0}, owner);
    Map<Integer, DmlBatch> parts =
        router.route(
            new DmlBatch(
                TABLE,
                List.of(
                    new OpRow(Op.INSERT, Row.of(a)),
                    new OpRow(Op.UPDATE_DELETE, Row.of(a)),
                    new OpRow(Op.UPDATE_INSERT, Row.of(b)))));
    int actorA = owner[vnodeOf(a)];
    int actorB = owner[vnodeOf(b)];
    assertThat(parts.get(actorA).rows())
        .containsExactly(new OpRow(Op.INSERT, Row.of(a)), new OpRow(Op.DELETE, Row.of(a)));
    assertThat(parts.get(actorB).rows()).containsExactly(new OpRow(Op.INSERT, Row.of(b)));
  }

  private static int vnodeOf(long k) {
    return VirtualNode.of(List.of(DataType.BIGINT), Row.of(k));
  }

  @Test
  void valuesAreInsertedOnceAfterTheFirstBarrier() {
    MockSource barriers = MockSource.of("bigint");
    barriers.pushBarrier(1).pushBarrier(2);
    ValuesExecutor values =
        new ValuesExecutor(INFO, barriers, barriers.schema(), List.of(Row.of(1L), Row.of(2L)));
    assertThat(Drain.pretty(Drain.all(values)))
        .containsExactly("B1", chunk("bigint\n+ 1\n+ 2"), "B2");
  }

  @Test
  void onItsInboxAWriteAcknowledgedBeforeABarrierIsEmittedBeforeThatBarrier() throws Exception {
    BarrierInbox inbox = new BarrierInbox(1);
    DmlChannel channel = new DmlChannel(TABLE, 8);
    inbox.onPush(channel::ring);
    DmlExecutor dml =
        DmlExecutor.onInbox(
            INFO,
            inbox,
            Schema.ofTypes(DataType.BIGINT),
            channel,
            new int[] {0},
            -1,
            VnodeBitmap.ALL,
            8);
    channel.offer(DmlBatch.insert(TABLE, List.of(Row.of(1L))));
    inbox.push(TestBarriers.barrier(1));
    assertThat(Drain.pretty(List.of(dml.next(), dml.next())))
        .as("nothing before the first barrier")
        .containsExactly("B" + TestBarriers.epoch(1), chunk("bigint\n+ 1"));

    // the control loop acknowledges a write, then injects: the rows join the barrier's epoch
    channel.offer(DmlBatch.insert(TABLE, List.of(Row.of(2L))));
    inbox.push(TestBarriers.barrier(2));
    assertThat(Drain.pretty(List.of(dml.next(), dml.next())))
        .containsExactly(chunk("bigint\n+ 2"), "B" + TestBarriers.epoch(2));

    // an idle actor wakes up for a write, without waiting for a barrier
    var next = CompletableFuture.supplyAsync(dml::next);
    Thread.sleep(20);
    channel.offer(DmlBatch.insert(TABLE, List.of(Row.of(3L))));
    assertThat(Drain.pretty(List.of(next.get(5, TimeUnit.SECONDS))))
        .containsExactly(chunk("bigint\n+ 3"));
  }

  @Test
  void nullRowIdsAreFilledWithUniqueIdsOfThisActorsVnodesFromTheEpoch() {
    List<VnodeBitmap> halves = VnodeBitmap.split(2);
    BarrierInbox inbox = new BarrierInbox(3);
    DmlChannel channel = new DmlChannel(TABLE, 8);
    Schema schema = Schema.ofTypes(DataType.VARCHAR, DataType.BIGINT);
    DmlExecutor dml =
        DmlExecutor.onInbox(
            new ExecutorInfo(3, 1, "Dml"),
            inbox,
            schema,
            channel,
            new int[] {1},
            1,
            halves.get(1),
            64);
    inbox.push(TestBarriers.barrier(7));
    long own = 5;
    while (!halves.get(1).contains(VirtualNode.of(List.of(DataType.BIGINT), Row.of(own)))) {
      own++;
    }
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      rows.add(Row.of("r" + i, i == 0 ? own : null)); // row 0 brings its own id
    }
    channel.offer(DmlBatch.insert(TABLE, rows));
    inbox.push(TestBarriers.barrier(8));
    List<Row> out = new ArrayList<>();
    for (Message m : List.of(dml.next(), dml.next(), dml.next(), dml.next())) {
      if (m instanceof Message.Chunk c) {
        c.chunk().visibleRows().forEach(r -> out.add(r.row()));
      }
    }
    assertThat(out).hasSize(100);
    assertThat(out.get(0).get(1)).isEqualTo(own);
    Set<Object> ids = new HashSet<>();
    for (Row r : out.subList(1, out.size())) {
      long id = (Long) r.get(1);
      assertThat(id >>> 22).as("epoch milliseconds of %s", r).isEqualTo(7L);
      assertThat(halves.get(1).contains(VirtualNode.of(List.of(DataType.BIGINT), Row.of(id))))
          .as("vnode of %s", r)
          .isTrue();
      ids.add(id);
    }
    assertThat(ids).hasSize(99);
  }

  @Test
  void splitRoutesDeletesAndInsertsByOwnerSpreadsNullRowIdsAndNamesAnUnownedVnode() {
    int[] owner = new int[VirtualNode.COUNT];
    for (int v = 0; v < owner.length; v++) {
      owner[v] = v % 2 == 0 ? 100 : 200;
    }
    List<DataType> types = List.of(DataType.BIGINT, DataType.BIGINT);
    List<Row> keyed = List.of(Row.of(1L, 1L), Row.of(2L, 2L), Row.of(3L, 3L));
    Map<Integer, DmlRouter.Part> parts =
        DmlRouter.split(types, new int[] {0}, -1, owner, keyed, keyed);
    for (Row r : keyed) {
      int actor = owner[VirtualNode.of(List.of(DataType.BIGINT), Row.of(r.get(0)))];
      assertThat(parts.get(actor).deletes()).contains(r);
      assertThat(parts.get(actor).inserts()).contains(r);
    }

    List<Row> nullIds = List.of(Row.of(1L, null), Row.of(2L, null), Row.of(3L, null));
    Map<Integer, DmlRouter.Part> spread =
        DmlRouter.split(types, new int[] {1}, 1, owner, List.of(), nullIds);
    assertThat(spread.get(100).inserts()).containsExactly(nullIds.get(0), nullIds.get(2));
    assertThat(spread.get(200).inserts()).containsExactly(nullIds.get(1));

    int[] halfKnown = owner.clone();
    int vnode = VirtualNode.of(List.of(DataType.BIGINT), Row.of(1L));
    halfKnown[vnode] = -1;
    assertThatThrownBy(() -> DmlRouter.split(types, new int[] {0}, -1, halfKnown, List.of(), keyed))
        .hasMessageContaining("row (1, 1) hashes to vnode " + vnode + ", which no actor here owns");
  }
}
