package dev.tideway.common.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Decoding never instantiates (or even loads) a class that is not registered, and refuses a
 * registered class that is not the accepted top-level type before reading it. Encoding refuses
 * unregistered classes, naming them.
 */
class KryoRejectionTest {
  private final TidewayKryo kryo = TidewayKryo.builder().registrar(new Probes.Registrar()).build();

  @BeforeEach
  void resetCounter() {
    Probes.CONSTRUCTED.set(0);
  }

  /** Bytes as a node writes them: the version byte, then the class id (+2, as Kryo encodes it). */
  private static byte[] message(int classId, String payload) {
    Output out = new Output(64, -1);
    out.writeByte(TidewayKryo.FORMAT_VERSION);
    out.writeVarInt(classId + 2, true);
    out.writeString(payload);
    return out.toBytes();
  }

  @Test
  void unknownClassIdFailsNamingTheIdAndConstructsNothing() {
    assertThatThrownBy(() -> kryo.deserialize(message(950, "x"), TidewayMessage.class))
        .isInstanceOf(SerdeException.class)
        .hasMessageContaining("unknown Kryo class id 950")
        .extracting(e -> ((SerdeException) e).reason())
        .isEqualTo(SerdeException.Reason.UNKNOWN_CLASS_ID);
    assertThat(Probes.CONSTRUCTED).hasValue(0);
  }

  @Test
  void unknownIdNestedInsideARegisteredMessageFailsToo() {
    // List.of(ping) as written, with the element's class id (901) patched to the unknown 950.
    byte[] bytes = kryo.serialize(List.of(new Probes.Ping("p")));
    byte[] id901 = varint(901 + 2);
    byte[] id950 = varint(950 + 2);
    int at = indexOf(bytes, id901);
    assertThat(at).isPositive();
    System.arraycopy(id950, 0, bytes, at, id950.length);
    assertThatThrownBy(() -> kryo.deserialize(bytes))
        .isInstanceOf(SerdeException.class)
        .hasMessageContaining("unknown Kryo class id 950");
    assertThat(Probes.CONSTRUCTED).hasValue(1); // only the Ping the test itself built
  }

  private static byte[] varint(int v) {
    Output out = new Output(8);
    out.writeVarInt(v, true);
    return out.toBytes();
  }

  private static int indexOf(byte[] hay, byte[] needle) {
    for (int i = 0; i + needle.length <= hay.length; i++) {
      if (Arrays.equals(Arrays.copyOfRange(hay, i, i + needle.length), needle)) {
        return i;
      }
    }
    return -1;
  }

  @Test
  void registeredClassThatIsNotAMessageIsRefusedUnread() {
    byte[] bytes = message(900, "not a message");
    assertThatThrownBy(() -> kryo.deserialize(bytes, TidewayMessage.class))
        .isInstanceOf(SerdeException.class)
        .hasMessageContaining("class id 900")
        .hasMessageContaining(Probes.RegisteredNotMessage.class.getName())
        .hasMessageContaining("is not a " + TidewayMessage.class.getName())
        .extracting(e -> ((SerdeException) e).reason())
        .isEqualTo(SerdeException.Reason.UNEXPECTED_CLASS);
    assertThat(Probes.CONSTRUCTED).hasValue(0);
    // The same bytes are a valid RegisteredNotMessage for a caller that accepts it:
    assertThat(kryo.deserialize(bytes)).isEqualTo(new Probes.RegisteredNotMessage("not a message"));
  }

  @Test
  void classNameOnTheWireIsRefusedWithoutLoadingIt() {
    Probes.RecordingLoader loader = new Probes.RecordingLoader(getClass().getClassLoader());
    String victim = "dev.tideway.common.serde.Probes$Unregistered";
    byte[] bytes = classNameMessage(victim);

    TidewayKryo strict = TidewayKryo.builder().classLoader(loader).build();
    Kryo strictKryo = strict.newKryo();
    strictKryo.setClassLoader(loader);
    assertThatThrownBy(() -> strict.deserialize(bytes))
        .isInstanceOf(SerdeException.class)
        .extracting(e -> ((SerdeException) e).reason())
        .isEqualTo(SerdeException.Reason.CLASS_NAME_ON_WIRE);
    assertThatThrownBy(
            () ->
                strictKryo.readClassAndObject(
                    new Input(Arrays.copyOfRange(bytes, 1, bytes.length))))
        .isInstanceOf(SerdeException.class);
    assertThat(loader.requested).doesNotContain(victim);
    assertThat(Probes.CONSTRUCTED).hasValue(0);
  }

  @Test
  void plainKryoWithRegistrationRequiredStillLoadsAClassNamedOnTheWire() {
    // Why StrictClassResolver exists: Kryo's default resolver loads the named class first and only
    // then notices it is not registered.
    Probes.RecordingLoader loader = new Probes.RecordingLoader(getClass().getClassLoader());
    String victim = "dev.tideway.common.serde.Probes$Unregistered";
    byte[] bytes = classNameMessage(victim);
    Kryo plain = new Kryo();
    plain.setRegistrationRequired(true);
    plain.setClassLoader(loader);
    assertThatThrownBy(
            () -> plain.readClassAndObject(new Input(Arrays.copyOfRange(bytes, 1, bytes.length))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Class is not registered");
    assertThat(loader.requested).contains(victim);
    assertThat(Probes.CONSTRUCTED).hasValue(0);
  }

  @Test
  void plainKryoFailsOnAnUnknownIdButWithoutSayingWhatToDo() {
    byte[] bytes = message(950, "x");
    Kryo plain = new Kryo();
    assertThatThrownBy(
            () -> plain.readClassAndObject(new Input(Arrays.copyOfRange(bytes, 1, bytes.length))))
        .isInstanceOf(KryoException.class)
        .hasMessageContaining("Encountered unregistered class ID: 950");
  }

  private static byte[] classNameMessage(String className) {
    Output out = new Output(64, -1);
    out.writeByte(TidewayKryo.FORMAT_VERSION);
    out.writeVarInt(1, true); // NAME + 2: "a class name follows"
    out.writeVarInt(0, true); // name id
    out.writeString(className);
    out.writeString("payload");
    return out.toBytes();
  }

  @Test
  void unregisteredClassIsRefusedOnSerializeNamingIt() {
    assertThatThrownBy(() -> kryo.serialize(new Probes.Unregistered("x")))
        .isInstanceOf(SerdeException.class)
        .hasMessageContaining(Probes.Unregistered.class.getName())
        .hasMessageContaining("not registered")
        .extracting(e -> ((SerdeException) e).reason())
        .isEqualTo(SerdeException.Reason.UNREGISTERED_CLASS);
  }

  @Test
  void unregisteredClassInsideARegisteredOneIsRefusedOnSerialize() {
    List<Object> wrapper =
        Collections.unmodifiableList(List.of(1)); // the wrapper is not registered
    assertThatThrownBy(() -> kryo.serialize(List.of(new Probes.Ping("p"), wrapper)))
        .isInstanceOf(SerdeException.class)
        .hasMessageContaining("UnmodifiableRandomAccessList");
  }

  @Test
  void aFailedCallLeavesThePoolUsable() {
    for (int i = 0; i < 3; i++) {
      assertThatThrownBy(() -> kryo.serialize(new Probes.Unregistered("x")))
          .isInstanceOf(SerdeException.class);
      assertThatThrownBy(() -> kryo.deserialize(message(950, "x")))
          .isInstanceOf(SerdeException.class);
    }
    Probes.Ping ping = new Probes.Ping("still works");
    assertThat(kryo.deserialize(kryo.serialize(ping), TidewayMessage.class)).isEqualTo(ping);
  }

  @Test
  void wrongFormatVersionIsRefused() {
    byte[] bytes = kryo.serialize(new Probes.Ping("p"));
    bytes[0] = 9;
    assertThatThrownBy(() -> kryo.deserialize(bytes))
        .isInstanceOf(SerdeException.class)
        .hasMessageContaining("format version 9")
        .extracting(e -> ((SerdeException) e).reason())
        .isEqualTo(SerdeException.Reason.UNSUPPORTED_FORMAT_VERSION);
  }

  @Test
  void trailingBytesAndTruncationAreCorrupt() {
    byte[] bytes = kryo.serialize(new Probes.Ping("ping"));
    byte[] longer = Arrays.copyOf(bytes, bytes.length + 2);
    assertThatThrownBy(() -> kryo.deserialize(longer))
        .isInstanceOf(SerdeException.class)
        .hasMessageContaining("2 trailing bytes");
    byte[] shorter = Arrays.copyOf(bytes, bytes.length - 2);
    assertThatThrownBy(() -> kryo.deserialize(shorter))
        .isInstanceOf(SerdeException.class)
        .extracting(e -> ((SerdeException) e).reason())
        .isEqualTo(SerdeException.Reason.CORRUPT);
    assertThatThrownBy(() -> kryo.deserialize(new byte[0])).hasMessageContaining("empty message");
  }

  @Test
  void invalidFieldValuesFailThroughTheRecordConstructor() {
    // A DataType(INT, precision 5): its canonical constructor rejects it, so decoding does too.
    Output out = new Output(64, -1);
    out.writeByte(TidewayKryo.FORMAT_VERSION);
    out.writeVarInt(121 + 2, true); // DataType; components sorted by name: id, precision, scale
    out.writeByte(1); // "not null" marker of a final-typed component
    out.writeVarInt(3, true); // TypeId INT code
    out.writeVarInt(5, false); // precision (Kryo writes ints as zigzag varints)
    out.writeVarInt(0, false); // scale
    assertThatThrownBy(() -> kryo.deserialize(out.toBytes()))
        .isInstanceOf(SerdeException.class)
        .hasMessageContaining("only DECIMAL takes precision/scale");
  }
}
