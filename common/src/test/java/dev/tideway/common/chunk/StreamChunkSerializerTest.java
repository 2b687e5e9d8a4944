package dev.tideway.common.chunk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.esotericsoftware.kryo.io.Output;
import dev.tideway.common.random.RandomSource;
import dev.tideway.common.serde.SerdeException;
import dev.tideway.common.serde.TidewayKryo;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.TypeId;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link StreamChunkSerializer} round-trips chunks of every type with NULLs and hidden rows, and
 * rejects malformed input with a clear error. Random chunks are seeded; a failure prints the seed,
 * and {@code -Dtideway.seed=N} replays it.
 */
class StreamChunkSerializerTest {
  private static final TidewayKryo KRYO = TidewayKryo.create();

  private static final List<DataType> ALL_TYPES = RandomChunks.ALL_TYPES;

  @Test
  void dslChunkWithNullsAndHiddenRowsRoundTrips() {
    StreamChunk chunk =
        Chunks.parse(
            """
               int  varchar  double  numeric(10,2)  interval
            +  1    a        1.5     2.50           '1 day'
            -  .    .        .       .              .
            U- 3    'x y'    NaN     -0.01          '-00:00:01'  D
            U+ 3    ''       -0      99999999.99    '1 mon'
            """);
    StreamChunk copy = roundTrip(chunk);
    assertThat(copy).isEqualTo(chunk);
    assertThat(copy.isVisible(2)).isFalse();
    assertThat(copy.cardinality()).isEqualTo(3);
    assertThat(Chunks.pretty(copy)).isEqualTo(Chunks.pretty(chunk));
  }

  @Test
  void everyTypeRoundTripsWithNullsAndHiddenRows() {
    RandomSource random = RandomSource.fromPropertyOr(20261129L);
    try {
      for (DataType type : ALL_TYPES) {
        for (int rows : new int[] {0, 1, 63, 64, 65, 1000}) {
          StreamChunk chunk = randomChunk(random, List.of(type, DataType.BIGINT), rows);
          StreamChunk copy = roundTrip(chunk);
          assertThat(copy).as("%s x %s rows", type, rows).isEqualTo(chunk);
          assertThat(copy.cardinality()).isEqualTo(chunk.cardinality());
          assertThat(copy.types()).isEqualTo(chunk.types());
          for (int i = 0; i < rows; i++) {
            assertThat(copy.column(0).isNull(i)).isEqualTo(chunk.column(0).isNull(i));
          }
        }
      }
    } catch (AssertionError e) {
      throw new AssertionError("seed " + random.seed() + " (replay: -Dtideway.seed=N): " + e, e);
    }
  }

  @Test
  void wideRandomChunksRoundTrip() {
    RandomSource random = RandomSource.fromPropertyOr(7L);
    try {
      for (int round = 0; round < 20; round++) {
        List<DataType> types = new ArrayList<>();
        int columns = random.nextInt(0, 8);
        for (int c = 0; c < columns; c++) {
          types.add(ALL_TYPES.get(random.nextInt(ALL_TYPES.size())));
        }
        StreamChunk chunk = randomChunk(random, types, random.nextInt(0, 300));
        assertThat(roundTrip(chunk)).isEqualTo(chunk);
      }
    } catch (AssertionError e) {
      throw new AssertionError("seed " + random.seed() + " (replay: -Dtideway.seed=N): " + e, e);
    }
  }

  @Test
  void stagingPathsForSmallBuffersAndStreamsGiveTheSameBytes() {
    // A small Output cannot take a column in place and a stream Input cannot be read in place:
    // both go through the serializer's scratch buffer and must produce and accept the same bytes.
    RandomSource random = RandomSource.fromPropertyOr(11L);
    StreamChunk chunk = randomChunk(random, ALL_TYPES, 200);
    com.esotericsoftware.kryo.Kryo k = KRYO.newKryo();
    Output small = new Output(16, -1);
    k.writeClassAndObject(small, chunk);
    byte[] viaScratch = small.toBytes();
    Output big = new Output(1 << 20, -1);
    k.writeClassAndObject(big, chunk);
    assertThat(viaScratch).isEqualTo(big.toBytes());
    com.esotericsoftware.kryo.io.Input stream =
        new com.esotericsoftware.kryo.io.Input(new java.io.ByteArrayInputStream(viaScratch), 64);
    assertThat(k.readClassAndObject(stream)).isEqualTo(chunk);
  }

  @Test
  void chunkBytesAreFixedWidthForPrimitiveColumns() {
    // 1024 rows x 4 bigint columns: ~32 KiB payload plus a small header, no per-value overhead.
    StreamChunkBuilder b =
        new StreamChunkBuilder(
            List.of(DataType.BIGINT, DataType.BIGINT, DataType.BIGINT, DataType.BIGINT), 1024);
    for (int i = 0; i < 1024; i++) {
      for (int c = 0; c < 4; c++) {
        b.column(c).appendLong(i * 31L + c);
      }
      b.appendOp(Op.INSERT);
    }
    byte[] bytes = KRYO.serialize(b.build());
    assertThat(bytes.length).isBetween(4 * 1024 * 8 + 1024, 4 * 1024 * 8 + 1024 + 64);
  }

  @Test
  void unknownOpCodeIsCorrupt() {
    byte[] bytes = KRYO.serialize(Chunks.parse("+ 1\n- 2"));
    int opsAt = indexOfOps(bytes);
    bytes[opsAt + 1] = 9;
    assertThatThrownBy(() -> KRYO.deserialize(bytes))
        .isInstanceOf(SerdeException.class)
        .hasMessageContaining("chunk row 1: unknown op code 9")
        .extracting(e -> ((SerdeException) e).reason())
        .isEqualTo(SerdeException.Reason.CORRUPT);
  }

  @Test
  void rowCountBeyondTheInputIsRefusedBeforeAllocating() {
    Output out = new Output(64, -1);
    out.writeByte(TidewayKryo.FORMAT_VERSION);
    out.writeVarInt(127 + 2, true); // StreamChunk
    out.writeVarInt(StreamChunkSerializer.MAX_ROWS, true);
    out.writeVarInt(1, true);
    assertThatThrownBy(() -> KRYO.deserialize(out.toBytes()))
        .isInstanceOf(SerdeException.class)
        .hasMessageContaining("needs " + StreamChunkSerializer.MAX_ROWS + " bytes");
    Output huge = new Output(64, -1);
    huge.writeByte(TidewayKryo.FORMAT_VERSION);
    huge.writeVarInt(127 + 2, true);
    huge.writeVarInt(StreamChunkSerializer.MAX_ROWS + 1, true);
    assertThatThrownBy(() -> KRYO.deserialize(huge.toBytes()))
        .isInstanceOf(SerdeException.class)
        .hasMessageContaining("rows count " + (StreamChunkSerializer.MAX_ROWS + 1));
  }

  @Test
  void unknownTypeCodeIsCorrupt() {
    byte[] bytes = KRYO.serialize(Chunks.parse("int\n+ 1"));
    // layout: version, class id (2 bytes), rows, columns, op, visibility flag, type code
    int typeAt = indexOfOps(bytes) + 1 + 1;
    assertThat(bytes[typeAt]).isEqualTo(TypeId.INT.code());
    bytes[typeAt] = 99;
    assertThatThrownBy(() -> KRYO.deserialize(bytes))
        .isInstanceOf(SerdeException.class)
        .hasMessageContaining("unknown type code 99");
  }

  /** Position of the first op byte: after version (1), class id (2), rows (1), columns (1). */
  private static int indexOfOps(byte[] bytes) {
    return 1 + 2 + 1 + 1;
  }

  private static StreamChunk roundTrip(StreamChunk chunk) {
    return KRYO.deserialize(KRYO.serialize(chunk), StreamChunk.class);
  }

  private static StreamChunk randomChunk(RandomSource random, List<DataType> types, int rows) {
    return RandomChunks.chunk(random, types, rows);
  }
}
