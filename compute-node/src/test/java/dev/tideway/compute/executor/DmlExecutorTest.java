package dev.tideway.compute.executor;

import static dev.tideway.compute.testing.Drain.chunk;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tideway.barrier.executor.ExecutorInfo;
import dev.tideway.barrier.message.Message;
import dev.tideway.common.chunk.Chunks;
import dev.tideway.common.chunk.Op;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.chunk.StreamChunkBuilder;
import dev.tideway.common.row.Row;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Schema;
import dev.tideway.common.vnode.VirtualNode;
import dev.tideway.common.vnode.VnodeBitmap;
import dev.tideway.compute.actor.BarrierInbox;
import dev.tideway.compute.actor.TestBarriers;
import dev.tideway.compute.testing.Drain;
import dev.tideway.compute.testing.MockSource;
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
  void chunksAreEmittedAfterTheFirstBarrierInOrderAndCutToTheChunkSize() throws Exception {
    MockSource barriers = MockSource.of("bigint", "varchar");
    barriers.pushBarrier(1).pushBarrier(2);
    DmlChannel channel = new DmlChannel(TABLE, List.of(DataType.BIGINT, DataType.VARCHAR));
    offer(channel, "bigint varchar\n+ 1 a\n+ 2 b\n+ 3 c");
    offer(channel, "bigint varchar\nU- 1 a\nU+ 1 z\n- 2 b");
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
    DmlChannel channel = new DmlChannel(TABLE, List.of(DataType.BIGINT));
    offer(channel, "bigint\n+ 0\nU- 1\nU+ 2");
    DmlExecutor dml = new DmlExecutor(INFO, barriers, channel, new int[] {0}, VnodeBitmap.ALL, 1);
    assertThat(Drain.pretty(Drain.all(dml)))
        .containsExactly("B1", chunk("bigint\n+ 0"), chunk("bigint\nU- 1\nU+ 2"));
  }

  @Test
  void aRowOfAnotherActorsVnodeIsRejected() throws Exception {
    MockSource barriers = MockSource.of("bigint");
    barriers.pushBarrier(1);
    DmlChannel channel = new DmlChannel(TABLE, List.of(DataType.BIGINT));
    Row row = Row.of(42L);
    int vnode = VirtualNode.of(List.of(DataType.BIGINT), row);
    offer(channel, "bigint\n+ 42");
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
    long c = b + 1;
    while (owner[vnodeOf(c)] != owner[vnodeOf(a)]) {
      c++;
    }
    Map<Integer, List<StreamChunk>> parts = new java.util.HashMap<>();
    DmlRouter router =
        new DmlRouter(
            List.of(DataType.BIGINT),
            new int[] {0},
            -1,
            owner,
            1024,
            1 << 20,
            s -> parts.computeIfAbsent(s.actorId(), x -> new ArrayList<>()).add(s.chunk()));
    router.insert(Row.of(a));
    router.update(Row.of(a), Row.of(b));
    router.update(Row.of(a), Row.of(c));
    router.flush();
    int actorA = owner[vnodeOf(a)];
    int actorB = owner[vnodeOf(b)];
    assertThat(parts.get(actorA))
        .containsExactly(Chunks.parse("bigint\n+ " + a + "\n- " + a + "\nU- " + a + "\nU+ " + c));
    assertThat(parts.get(actorB)).containsExactly(Chunks.parse("bigint\n+ " + b));
  }

  @Test
  void theRouterCutsChunksByRowsAndBytesNeverSplittingAPairAndRefusesAnOversizedRow() {
    int[] owner = new int[VirtualNode.COUNT];
    List<StreamChunk> out = new ArrayList<>();
    DmlRouter router =
        new DmlRouter(
            List.of(DataType.BIGINT, DataType.VARCHAR),
            new int[] {0},
            -1,
            owner,
            3,
            200,
            s -> out.add(s.chunk()));
    router.insert(Row.of(1L, "a"));
    router.insert(Row.of(2L, "b"));
    router.update(Row.of(3L, "c"), Row.of(3L, "d")); // 2 + 2 rows > 3: the pair opens a chunk
    router.insert(Row.of(4L, "x".repeat(50))); // ~165 bytes: with the pair, over 200
    router.flush();
    assertThat(out.stream().map(StreamChunk::size).toList()).containsExactly(2, 2, 1);
    assertThatThrownBy(() -> router.insert(Row.of(5L, "y".repeat(100))))
        .isInstanceOf(DmlRouter.RowTooLargeException.class)
        .hasMessageContaining("larger than the largest DML message (200 bytes");
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
    DmlChannel channel = new DmlChannel(TABLE, List.of(DataType.BIGINT));
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
    offer(channel, "bigint\n+ 1");
    inbox.push(TestBarriers.barrier(1));
    assertThat(Drain.pretty(List.of(dml.next(), dml.next())))
        .as("nothing before the first barrier")
        .containsExactly("B" + TestBarriers.epoch(1), chunk("bigint\n+ 1"));

    // the control loop acknowledges a write, then injects: the rows join the barrier's epoch
    offer(channel, "bigint\n+ 2");
    inbox.push(TestBarriers.barrier(2));
    assertThat(Drain.pretty(List.of(dml.next(), dml.next())))
        .containsExactly(chunk("bigint\n+ 2"), "B" + TestBarriers.epoch(2));

    // an idle actor wakes up for a write, without waiting for a barrier
    var next = CompletableFuture.supplyAsync(dml::next);
    Thread.sleep(20);
    offer(channel, "bigint\n+ 3");
    assertThat(Drain.pretty(List.of(next.get(5, TimeUnit.SECONDS))))
        .containsExactly(chunk("bigint\n+ 3"));
  }

  @Test
  void nullRowIdsAreFilledWithUniqueIdsOfThisActorsVnodesFromTheEpoch() {
    List<VnodeBitmap> halves = VnodeBitmap.split(2);
    BarrierInbox inbox = new BarrierInbox(3);
    DmlChannel channel = new DmlChannel(TABLE, List.of(DataType.VARCHAR, DataType.BIGINT));
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
    StreamChunkBuilder b = new StreamChunkBuilder(schema.types(), rows.size());
    rows.forEach(r -> b.append(Op.INSERT, r));
    channel.offer(b.build(), new CompletableFuture<>());
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
  void routeSendsDeletesAndInsertsToTheirOwnerSpreadsNullRowIdsAndNamesAnUnownedVnode() {
    int[] owner = new int[VirtualNode.COUNT];
    for (int v = 0; v < owner.length; v++) {
      owner[v] = v % 2 == 0 ? 100 : 200;
    }
    List<DataType> types = List.of(DataType.BIGINT, DataType.BIGINT);
    List<Row> keyed = List.of(Row.of(1L, 1L), Row.of(2L, 2L), Row.of(3L, 3L));
    Map<Integer, List<StreamChunk>> parts =
        DmlRouter.route(types, new int[] {0}, -1, owner, 1024, keyed, keyed);
    for (Row r : keyed) {
      int actor = owner[VirtualNode.of(List.of(DataType.BIGINT), Row.of(r.get(0)))];
      List<StreamChunk.OpRow> rows = parts.get(actor).get(0).visibleRows();
      assertThat(rows)
          .contains(new StreamChunk.OpRow(Op.DELETE, r), new StreamChunk.OpRow(Op.INSERT, r));
    }

    List<Row> nullIds = List.of(Row.of(1L, null), Row.of(2L, null), Row.of(3L, null));
    Map<Integer, List<StreamChunk>> spread =
        DmlRouter.route(types, new int[] {1}, 1, owner, 1024, List.of(), nullIds);
    assertThat(spread.get(100).get(0).visibleRows().stream().map(StreamChunk.OpRow::row))
        .containsExactly(nullIds.get(0), nullIds.get(2));
    assertThat(spread.get(200).get(0).visibleRows().stream().map(StreamChunk.OpRow::row))
        .containsExactly(nullIds.get(1));

    int[] halfKnown = owner.clone();
    int vnode = VirtualNode.of(List.of(DataType.BIGINT), Row.of(1L));
    halfKnown[vnode] = -1;
    assertThatThrownBy(
            () -> DmlRouter.route(types, new int[] {0}, -1, halfKnown, 1024, List.of(), keyed))
        .hasMessageContaining("row (1, 1) hashes to vnode " + vnode + ", which no actor here owns");
  }

  @Test
  void aDiscardedChannelFailsWhatItHeldAndEveryLaterOffer() {
    DmlChannel channel = new DmlChannel(TABLE, List.of(DataType.BIGINT));
    CompletableFuture<Long> queued = new CompletableFuture<>();
    channel.offer(Chunks.parse("bigint\n+ 1"), queued);
    channel.discard("actor 5 stopped");
    CompletableFuture<Long> late = new CompletableFuture<>();
    channel.offer(Chunks.parse("bigint\n+ 2"), late);
    assertThat(queued).isCompletedExceptionally();
    assertThat(late).isCompletedExceptionally();
    assertThatThrownBy(late::join).hasMessageContaining("actor 5 stopped");
    assertThat(channel.queued()).isZero();
  }

  private static void offer(DmlChannel channel, String chunk) {
    channel.offer(Chunks.parse(chunk), new CompletableFuture<>());
  }
}
