package dev.tideway.compute.exchange;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tideway.barrier.message.Message;
import dev.tideway.common.chunk.Op;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.chunk.StreamChunkBuilder;
import dev.tideway.common.chunk.StreamChunkSerializer;
import dev.tideway.common.row.Row;
import dev.tideway.common.serde.TidewayKryo;
import dev.tideway.common.types.DataType;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An exchange frame never depends on fitting the transport's frame: chunks of wide rows are cut so
 * that every frame, encoded, fits the configured size (the bytes Pekko gives it), update pairs stay
 * together, rows keep their order, and a single row larger than a frame fails the channel naming
 * its size instead of being dropped by the transport.
 */
class RemoteOutputFramesTest {
  private static final long CH = ChannelId.of(1, 2);
  private static final long FRAME = 16 * 1024;
  private final TidewayKryo kryo = TidewayKryo.create();

  private static StreamChunk wide(int rows, int chars) {
    StreamChunkBuilder b = new StreamChunkBuilder(List.of(DataType.BIGINT, DataType.VARCHAR), rows);
    for (int i = 0; i < rows; i++) {
      Op op = i % 10 == 4 ? Op.UPDATE_DELETE : i % 10 == 5 ? Op.UPDATE_INSERT : Op.INSERT;
      b.append(op, Row.of((long) i, ("r" + i + "-").repeat(chars / 4)));
    }
    return b.build();
  }

  @Test
  void aChunkLargerThanAFrameIsCutIntoFramesThatFitAndKeepTheirRowsInOrder() {
    List<ExchangeMessage.Frame> sent = new ArrayList<>();
    RemoteOutput out = new RemoteOutput(CH, 1_000, 1024, FRAME, 1_000, sent::add);
    StreamChunk big = wide(600, 400); // about 600 x 1.2 KiB: many frames' worth
    assertThat(StreamChunkSerializer.estimatedBytes(big)).isGreaterThan(10 * FRAME);
    out.send(Message.of(big));
    out.flush();
    assertThat(sent.size()).isGreaterThan(10);
    List<StreamChunk.OpRow> rows = new ArrayList<>();
    for (ExchangeMessage.Frame f : sent) {
      ByteBuffer buf = ByteBuffer.allocate((int) FRAME + 512); // the frame plus its header's room
      kryo.serialize(f, buf); // throws when it does not fit
      for (Message m : f.messages()) {
        StreamChunk c = ((Message.Chunk) m).chunk();
        assertThat(c.op(0)).as("an update pair is never cut").isNotEqualTo(Op.UPDATE_INSERT);
        rows.addAll(c.visibleRows());
      }
    }
    assertThat(rows).isEqualTo(big.visibleRows());
  }

  @Test
  void smallChunksAreBatchedUpToTheFrameSize() {
    List<ExchangeMessage.Frame> sent = new ArrayList<>();
    RemoteOutput out = new RemoteOutput(CH, 1_000, 1_000_000, FRAME, 1_000, sent::add);
    for (int i = 0; i < 100; i++) {
      out.send(Message.of(wide(4, 400)));
    }
    out.flush();
    assertThat(sent.size()).as("about 100 x 5 KiB in 16 KiB frames").isBetween(25, 60);
    for (ExchangeMessage.Frame f : sent) {
      kryo.serialize(f, ByteBuffer.allocate((int) FRAME + 512));
    }
  }

  @Test
  void aRowLargerThanAFrameFailsTheChannelNamingItsSize() {
    RemoteOutput out = new RemoteOutput(CH, 1_000, 1024, FRAME, 1_000, f -> {});
    assertThatThrownBy(() -> out.send(Message.of(wide(1, 40_000))))
        .isInstanceOf(ChannelFailed.class)
        .hasMessageContaining("larger than an exchange frame (16384 bytes");
  }
}
