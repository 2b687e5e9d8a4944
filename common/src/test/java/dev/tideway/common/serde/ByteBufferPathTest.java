package dev.tideway.common.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The {@code ByteBuffer} path (Artery's pooled buffers) writes exactly the bytes of the {@code
 * byte[]} path and reads them back, whatever the buffer's kind, byte order and starting position.
 */
class ByteBufferPathTest {
  private final TidewayKryo kryo = TidewayKryo.builder().registrar(new Probes.Registrar()).build();

  private static List<Object> samples() {
    List<Object> all = new ArrayList<>(Samples.core());
    all.addAll(Samples.plan());
    return all;
  }

  @Test
  void sameBytesAsTheArrayPathAndBack() {
    for (boolean direct : new boolean[] {false, true}) {
      for (ByteOrder order : new ByteOrder[] {ByteOrder.LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN}) {
        for (Object sample : samples()) {
          ByteBuffer buf =
              direct ? ByteBuffer.allocateDirect(1 << 16) : ByteBuffer.allocate(1 << 16);
          buf.order(order);
          buf.position(7); // Artery writes after its envelope header
          kryo.serialize(sample, buf);
          int end = buf.position();
          byte[] written = new byte[end - 7];
          buf.position(7);
          buf.get(written);
          String what = sample.getClass().getName() + " direct=" + direct + " " + order;
          assertThat(written).as(what).isEqualTo(kryo.serialize(sample));
          assertThat(buf.order()).isEqualTo(order);
          buf.position(7).limit(end);
          assertThat(kryo.deserialize(buf, Object.class)).as(what).isEqualTo(sample);
          assertThat(buf.position()).isEqualTo(end);
        }
      }
    }
  }

  @Test
  void aMessageTooLargeForTheBufferFailsAndThePoolStaysUsable() {
    ByteBuffer small = ByteBuffer.allocate(8);
    assertThatThrownBy(() -> kryo.serialize(Samples.plan().get(2), small))
        .isInstanceOf(SerdeException.class)
        .hasMessageContaining("does not fit in a frame of 8 bytes")
        .extracting(e -> ((SerdeException) e).reason())
        .isEqualTo(SerdeException.Reason.TOO_LARGE);
    ByteBuffer ok = ByteBuffer.allocate(4096);
    kryo.serialize(new Probes.Ping("p"), ok);
    ok.flip();
    assertThat(kryo.deserialize(ok, TidewayMessage.class)).isEqualTo(new Probes.Ping("p"));
  }

  @Test
  void rejectionsHoldOnTheBufferPathToo() {
    byte[] notAMessage = kryo.serialize(new Probes.RegisteredNotMessage("x"));
    Probes.CONSTRUCTED.set(0);
    assertThatThrownBy(() -> kryo.deserialize(ByteBuffer.wrap(notAMessage), TidewayMessage.class))
        .isInstanceOf(SerdeException.class)
        .hasMessageContaining("is not a " + TidewayMessage.class.getName());
    byte[] trailing = Arrays.copyOf(kryo.serialize(new Probes.Ping("p")), notAMessage.length + 40);
    assertThatThrownBy(() -> kryo.deserialize(ByteBuffer.wrap(trailing), TidewayMessage.class))
        .isInstanceOf(SerdeException.class)
        .hasMessageContaining("trailing bytes");
    // The Ping the test built, and the one decoded before its trailing bytes were seen; never the
    // RegisteredNotMessage.
    assertThat(Probes.CONSTRUCTED).hasValue(2);
  }
}
