package dev.tideway.barrier.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import dev.tideway.barrier.progress.NodeReport;
import dev.tideway.barrier.progress.ProgressBatch;
import dev.tideway.barrier.progress.SinkDelivery;
import org.junit.jupiter.api.Test;

class ProgressBatchSerializerTest {
  final BarrierKryoRegistrar.ProgressBatchSerializer serializer =
      new BarrierKryoRegistrar.ProgressBatchSerializer();

  /** A batch on the wire as a newer release may write it: rows {actorId, code, a, rows}. */
  static byte[] wire(long[]... rows) {
    Output out = new Output(256, -1);
    out.writeVarInt(rows.length, true);
    for (long[] r : rows) {
      out.writeInt((int) r[0]);
      out.writeByte((byte) r[1]);
      out.writeLong(r[2]);
      out.writeLong(r[3]);
    }
    return out.toBytes();
  }

  ProgressBatch read(byte[] bytes) {
    return serializer.read(new Kryo(), new Input(bytes), ProgressBatch.class);
  }

  @Test
  void aReportKindOfANewerReleaseIsSkippedAndTheRestRead() {
    ProgressBatch b =
        read(
            wire(
                new long[] {4, 1, 10, 500},
                new long[] {9, 99, 1, 2}, // a kind this release does not know
                new long[] {5, SinkDelivery.CODE, 7, 8},
                new long[] {2, NodeReport.HEAP, 100, 200}));
    assertThat(b.size()).isEqualTo(3);
    assertThat(b.actorId(0)).isEqualTo(4);
    assertThat(b.rows(0)).isEqualTo(500);
    assertThat(b.code(1)).isEqualTo(SinkDelivery.CODE);
    assertThat(b.code(2)).isEqualTo(NodeReport.HEAP);
  }

  @Test
  void anUnknownBackfillStateStillFailsTheRead() {
    assertThatThrownBy(() -> read(wire(new long[] {4, 9, 10, 500})))
        .hasMessageContaining("progress code 9");
  }
}
