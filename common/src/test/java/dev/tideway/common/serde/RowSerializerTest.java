package dev.tideway.common.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tideway.common.chunk.RandomChunks;
import dev.tideway.common.random.RandomSource;
import dev.tideway.common.row.Row;
import dev.tideway.common.types.DataType;
import java.time.LocalTime;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Rows of every SQL value class round-trip exactly; other classes are refused on encode. */
class RowSerializerTest {
  private final TidewayKryo kryo = TidewayKryo.create();

  @Test
  void randomRowsOfEveryTypeRoundTrip() {
    RandomSource random = RandomSource.fromPropertyOr(99L);
    try {
      for (int round = 0; round < 200; round++) {
        Object[] values = new Object[random.nextInt(0, 20)];
        for (int i = 0; i < values.length; i++) {
          DataType t = RandomChunks.ALL_TYPES.get(random.nextInt(RandomChunks.ALL_TYPES.size()));
          values[i] = random.chance(0.2) ? null : RandomChunks.value(random, t);
        }
        Row row = Row.of(values);
        assertThat(kryo.deserialize(kryo.serialize(row), Row.class)).isEqualTo(row);
      }
    } catch (AssertionError e) {
      throw new AssertionError("seed " + random.seed() + " (replay: -Dtideway.seed=N): " + e, e);
    }
  }

  @Test
  void nanosecondsSurviveThoughChunksKeepMicros() {
    Row row = Row.of(LocalTime.of(1, 2, 3, 456_789_123));
    assertThat(kryo.deserialize(kryo.serialize(row), Row.class)).isEqualTo(row);
  }

  @Test
  void aNonSqlValueIsRefusedNamingTheColumn() {
    Row row = Row.of(1, List.of("not a value"));
    assertThatThrownBy(() -> kryo.serialize(row))
        .isInstanceOf(SerdeException.class)
        .hasMessageContaining("row column 1")
        .hasMessageContaining("is not an SQL value class");
  }
}
