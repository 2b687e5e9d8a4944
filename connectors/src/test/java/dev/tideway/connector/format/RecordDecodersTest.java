package dev.tideway.connector.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Field;
import dev.tideway.common.types.Schema;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;

class RecordDecodersTest {
  private static final Schema COLS =
      new Schema(
          List.of(
              Field.of("id", DataType.BIGINT),
              Field.of("n", DataType.INT),
              Field.of("price", DataType.parse("numeric(10,2)")),
              Field.of("name", DataType.VARCHAR),
              Field.of("ok", DataType.BOOLEAN),
              Field.of("at", DataType.TIMESTAMP),
              Field.of("d", DataType.DATE),
              Field.of("x", DataType.DOUBLE)));

  private static Object[] json(String text) throws MalformedRecordException {
    Object[] out = new Object[COLS.size()];
    new JsonRecordDecoder(COLS).decode(text.getBytes(StandardCharsets.UTF_8), out);
    return out;
  }

  private static Object[] csv(String text) throws MalformedRecordException {
    Object[] out = new Object[COLS.size()];
    new CsvRecordDecoder(COLS, ',').decode(text.getBytes(StandardCharsets.UTF_8), out);
    return out;
  }

  @Test
  void jsonMembersBecomeTypedValuesByName() throws Exception {
    Object[] r =
        json(
            "{\"ID\": 7, \"n\": \"12\", \"price\": 3.456, \"name\": {\"a\": [1, 2]}, \"ok\": true,"
                + " \"at\": \"2024-01-02 03:04:05\", \"d\": \"2024-02-29\", \"x\": 5,"
                + " \"unknown\": {\"deep\": [1]}}");
    assertThat(r)
        .containsExactly(
            7L,
            12,
            new BigDecimal("3.46"),
            "{\"a\":[1,2]}",
            true,
            LocalDateTime.parse("2024-01-02T03:04:05"),
            LocalDate.parse("2024-02-29"),
            5.0);
    assertThat(json("{\"id\": null}")).containsOnlyNulls();
    assertThat(json("{\"at\": 86400000}")[5]).isEqualTo(LocalDateTime.parse("1970-01-02T00:00:00"));
  }

  @Test
  void jsonThatDoesNotFitFailsTheRecordNamingTheMember() {
    assertThatThrownBy(() -> json("{\"id\": 1.5}")).hasMessageContaining("\"id\"");
    assertThatThrownBy(() -> json("{\"n\": 3000000000}")).hasMessageContaining("out of range");
    assertThatThrownBy(() -> json("{\"id\": 99999999999999999999}"))
        .hasMessageContaining("out of range");
    assertThatThrownBy(() -> json("{\"ok\": 1}")).hasMessageContaining("number is not a boolean");
    assertThatThrownBy(() -> json("{\"d\": \"yesterday\"}"))
        .hasMessageContaining("invalid input syntax for type date");
    assertThatThrownBy(() -> json("[1, 2]")).hasMessageContaining("not a JSON object");
    assertThatThrownBy(() -> json("{\"id\": 1")).hasMessageContaining("invalid JSON");
    assertThatThrownBy(() -> json("{} {}")).hasMessageContaining("text after");
    assertThatThrownBy(() -> json("")).hasMessageContaining("empty record");
  }

  @Test
  void csvFieldsAreReadInColumnOrderWithQuotesAndNulls() throws Exception {
    assertThat(csv("1,2,3.1,\"a,\"\"b\"\"\",true,2024-01-02 03:04:05,2024-02-29,1e3\n"))
        .containsExactly(
            1L,
            2,
            new BigDecimal("3.10"),
            "a,\"b\"",
            true,
            LocalDateTime.parse("2024-01-02T03:04:05"),
            LocalDate.parse("2024-02-29"),
            1000.0);
    Object[] r = csv("1,,,\"\",,,,");
    assertThat(r[1]).isNull();
    assertThat(r[3]).isEqualTo("");
    assertThatThrownBy(() -> csv("1,2")).hasMessageContaining("2 field(s) for 8 column(s)");
    assertThatThrownBy(() -> csv("x,2,3,a,true,2024-01-02 03:04:05,2024-02-29,1"))
        .hasMessageContaining("field 1");
    assertThatThrownBy(() -> csv("1,2,3,\"a,true,,,")).hasMessageContaining("unterminated");
  }

  @Test
  void timestamptzFromJsonKeepsTheInstant() throws Exception {
    Schema s = new Schema(List.of(Field.of("t", DataType.TIMESTAMPTZ)));
    Object[] out = new Object[1];
    new JsonRecordDecoder(s)
        .decode("{\"t\": \"2024-01-01 10:00:00+02\"}".getBytes(StandardCharsets.UTF_8), out);
    assertThat(out[0]).isEqualTo(Instant.parse("2024-01-01T08:00:00Z"));
  }
}
