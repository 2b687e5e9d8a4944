package dev.tideway.compute.executor.sink;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.common.chunk.Chunks;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Field;
import dev.tideway.common.types.Schema;
import dev.tideway.connector.kafka.KafkaSinkConfig.Format;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChangeEncoderTest {
  private static final Schema S =
      new Schema(
          List.of(
              Field.of("k", DataType.BIGINT),
              Field.of("v", DataType.VARCHAR),
              Field.of("_row_id", DataType.BIGINT)));

  /** Inserts, a delete, an update keeping its key and one moving it. */
  private static final String CHANGES =
      "bigint varchar bigint\n+ 1 a 10\n- 2 b 20\nU- 3 c 30\nU+ 3 d 30\nU- 4 e 40\nU+ 5 e 50\n";

  private static List<String> encode(Format f) {
    List<String> out = new ArrayList<>();
    for (byte[][] r :
        new ChangeEncoder(f, S, List.of(0), List.of(0, 1)).encode(Chunks.parse(CHANGES))) {
      out.add(text(r[0]) + " => " + text(r[1]));
    }
    return out;
  }

  private static String text(byte[] b) {
    return b == null ? "null" : new String(b, StandardCharsets.UTF_8);
  }

  @Test
  void plainWritesWhatIsInsertedAndHiddenColumnsStayOut() {
    assertThat(encode(Format.PLAIN))
        .containsExactly(
            "null => {\"k\":1,\"v\":\"a\"}",
            "null => {\"k\":3,\"v\":\"d\"}",
            "null => {\"k\":5,\"v\":\"e\"}");
  }

  @Test
  void upsertKeysEveryChangeAndDeletesWithTombstones() {
    assertThat(encode(Format.UPSERT))
        .containsExactly(
            "{\"k\":1} => {\"k\":1,\"v\":\"a\"}",
            "{\"k\":2} => null",
            "{\"k\":3} => {\"k\":3,\"v\":\"d\"}",
            "{\"k\":4} => null",
            "{\"k\":5} => {\"k\":5,\"v\":\"e\"}");
  }

  @Test
  void debeziumPairsAnUpdateThatKeepsItsKey() {
    assertThat(encode(Format.DEBEZIUM))
        .containsExactly(
            "{\"k\":1} => {\"before\":null,\"after\":{\"k\":1,\"v\":\"a\"},\"op\":\"c\"}",
            "{\"k\":2} => {\"before\":{\"k\":2,\"v\":\"b\"},\"after\":null,\"op\":\"d\"}",
            "{\"k\":3} => {\"before\":{\"k\":3,\"v\":\"c\"},\"after\":{\"k\":3,\"v\":\"d\"},\"op\":\"u\"}",
            "{\"k\":4} => {\"before\":{\"k\":4,\"v\":\"e\"},\"after\":null,\"op\":\"d\"}",
            "{\"k\":5} => {\"before\":null,\"after\":{\"k\":5,\"v\":\"e\"},\"op\":\"c\"}");
  }
}
