package dev.tideway.compute.exchange;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.barrier.message.Message;
import dev.tideway.common.chunk.Chunks;
import dev.tideway.common.chunk.Op;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.row.Row;
import dev.tideway.common.types.DataType;
import dev.tideway.common.vnode.VirtualNode;
import dev.tideway.compute.actor.TestBarriers;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class HashDispatcherTest {
  private final LocalChannel out0 = new LocalChannel(ChannelId.of(1, 10), 100);
  private final LocalChannel out1 = new LocalChannel(ChannelId.of(1, 11), 100);

  /** Even vnodes to output 0, odd to output 1. */
  private HashDispatcher dispatcher() {
    int[] owner = new int[VirtualNode.COUNT];
    for (int v = 0; v < owner.length; v++) {
      owner[v] = v % 2;
    }
    return new HashDispatcher(
        List.of(out0, out1), owner, List.of(DataType.BIGINT, DataType.BIGINT), new int[] {0});
  }

  private static List<StreamChunk.OpRow> drain(LocalChannel ch, List<Message> others) {
    List<StreamChunk.OpRow> rows = new ArrayList<>();
    for (Message m = ch.poll(); m != null; m = ch.poll()) {
      if (m instanceof Message.Chunk c) {
        rows.addAll(c.chunk().visibleRows());
      } else {
        others.add(m);
      }
    }
    return rows;
  }

  private static int vnodeOf(long key) {
    return VirtualNode.of(List.of(DataType.BIGINT), Row.of(key));
  }

  @Test
  void everyRowGoesToTheOwnerOfItsVnodeAndBarriersToAll() {
    HashDispatcher d = dispatcher();
    d.dispatch(TestBarriers.barrier(1));
    StringBuilder dsl = new StringBuilder("bigint bigint\n");
    for (long k = 0; k < 200; k++) {
      dsl.append("+ ").append(k).append(' ').append(k * 10).append('\n');
    }
    d.dispatch(Message.of(Chunks.parse(dsl.toString())));
    d.dispatch(TestBarriers.barrier(2));

    List<Message> control0 = new ArrayList<>();
    List<Message> control1 = new ArrayList<>();
    List<StreamChunk.OpRow> rows0 = drain(out0, control0);
    List<StreamChunk.OpRow> rows1 = drain(out1, control1);
    assertThat(rows0.size() + rows1.size()).isEqualTo(200);
    assertThat(rows0).allMatch(r -> vnodeOf((Long) r.row().get(0)) % 2 == 0);
    assertThat(rows1).allMatch(r -> vnodeOf((Long) r.row().get(0)) % 2 == 1);
    assertThat(rows0).isNotEmpty();
    assertThat(rows1).isNotEmpty();
    assertThat(control0).containsExactly(TestBarriers.barrier(1), TestBarriers.barrier(2));
    assertThat(control1).containsExactly(TestBarriers.barrier(1), TestBarriers.barrier(2));
  }

  @Test
  void anUpdateWhoseHalvesLandOnDifferentOutputsBecomesDeleteAndInsert() {
    long even = firstKeyWithParity(0);
    long odd = firstKeyWithParity(1);
    long even2 = firstKeyWithParity(0, even + 1);
    StreamChunk chunk =
        Chunks.parse(
            "bigint bigint\nU- "
                + even
                + " 1\nU+ "
                + odd
                + " 2\nU- "
                + even
                + " 3\nU+ "
                + even2
                + " 4\n");
    dispatcher().dispatch(Message.of(chunk));
    List<StreamChunk.OpRow> rows0 = drain(out0, new ArrayList<>());
    List<StreamChunk.OpRow> rows1 = drain(out1, new ArrayList<>());
    assertThat(rows0)
        .extracting(StreamChunk.OpRow::op)
        .containsExactly(Op.DELETE, Op.UPDATE_DELETE, Op.UPDATE_INSERT);
    assertThat(rows1).extracting(StreamChunk.OpRow::op).containsExactly(Op.INSERT);
    assertThat(rows1.get(0).row()).isEqualTo(Row.of(odd, 2L));
  }

  private static long firstKeyWithParity(int parity) {
    return firstKeyWithParity(parity, 0);
  }

  private static long firstKeyWithParity(int parity, long from) {
    long k = from;
    while (vnodeOf(k) % 2 != parity) {
      k++;
    }
    return k;
  }
}
