package dev.tideway.connector.format;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Field;
import dev.tideway.common.types.Schema;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;

class JsonRowEncoderTest {
  private static final Schema COLS =
      new Schema(
          List.of(
              Field.of("id", DataType.BIGINT),
              Field.of("price", DataType.parse("numeric(10,2)")),
              Field.of("name", DataType.VARCHAR),
              Field.of("at", DataType.TIMESTAMP),
              Field.of("z", DataType.TIMESTAMPTZ),
              Field.of("raw", DataType.BYTEA),
              Field.of("x", DataType.DOUBLE)));

  private static final Object[] ROW = {
    7L,
    new BigDecimal("3.40"),
    "a \"b\"",
    LocalDateTime.parse("2024-01-02T03:04:05"),
    Instant.parse("2024-01-02T03:04:05Z"),
    new byte[] {1, 2},
    Double.NaN
  };

  private static String text(byte[] b) {
    return new String(b, StandardCharsets.UTF_8);
  }

  @Test
  void rowsBecomeObjectsTheDecoderReadsBack() throws Exception {
    JsonRowEncoder e = new JsonRowEncoder(COLS);
    String json = text(e.encode(ROW));
    assertThat(json)
        .isEqualTo(
            "{\"id\":7,\"price\":3.40,\"name\":\"a \\\"b\\\"\",\"at\":\"2024-01-02 03:04:05\","
                + "\"z\":\"2024-01-02 03:04:05+00\",\"raw\":\"AQI=\",\"x\":\"NaN\"}");
    Object[] back = new Object[COLS.size()];
    new JsonRecordDecoder(COLS).decode(e.encode(ROW), back);
    assertThat(back[0]).isEqualTo(7L);
    assertThat(back[1]).isEqualTo(new BigDecimal("3.40"));
    assertThat(back[2]).isEqualTo("a \"b\"");
    assertThat(back[3]).isEqualTo(ROW[3]);
    assertThat(back[4]).isEqualTo(ROW[4]);
    assertThat((byte[]) back[5]).containsExactly(1, 2);
    assertThat(text(e.encode(ROW, List.of(0, 2)))).isEqualTo("{\"id\":7,\"name\":\"a \\\"b\\\"\"}");
    assertThat(text(e.encode(new Object[7], List.of(0)))).isEqualTo("{\"id\":null}");
  }

  @Test
  void debeziumEnvelopesCarryBeforeAfterAndOp() {
    JsonRowEncoder e = new JsonRowEncoder(COLS);
    assertThat(text(e.debezium(null, ROW, "c", List.of(0))))
        .isEqualTo("{\"before\":null,\"after\":{\"id\":7},\"op\":\"c\"}");
    assertThat(text(e.debezium(ROW, null, "d", List.of(0, 1))))
        .isEqualTo("{\"before\":{\"id\":7,\"price\":3.40},\"after\":null,\"op\":\"d\"}");
  }
}
