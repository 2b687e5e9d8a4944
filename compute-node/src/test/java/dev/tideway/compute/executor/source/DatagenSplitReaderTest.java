package dev.tideway.compute.executor.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.row.Row;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Field;
import dev.tideway.common.types.Schema;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DatagenSplitReaderTest {
  static final Schema SCHEMA =
      Schema.of(
          Field.of("id", DataType.INT),
          Field.of("score", DataType.DOUBLE),
          Field.of("name", DataType.VARCHAR),
          Field.of("ts", DataType.TIMESTAMP));

  static List<Row> readAll(Map<String, String> options) {
    List<Row> out = new ArrayList<>();
    for (SplitReader r : DatagenSplitReader.allSplits(SCHEMA, options)) {
      long offset = 0;
      while (!r.isExhausted(offset)) {
        SplitReader.Batch b = r.read(offset, 3);
        offset = b.nextOffset();
        b.chunk().visibleRows().stream().map(StreamChunk.OpRow::row).forEach(out::add);
      }
    }
    return out;
  }

  static Map<String, String> options(int splits, long seed) {
    Map<String, String> o = new HashMap<>();
    o.put("fields.id.kind", "sequence");
    o.put("fields.id.start", "5");
    o.put("fields.id.end", "24");
    o.put("fields.score.min", "-1");
    o.put("fields.score.max", "1");
    o.put("fields.name.length", "6");
    o.put("fields.ts.max_past_ms", "60000");
    o.put("datagen.split.num", Integer.toString(splits));
    o.put("datagen.seed", Long.toString(seed));
    return o;
  }

  @Test
  void splitsEmitEachSequenceValueOnceAndRandomColumnsStayInRange() {
    List<Row> rows = readAll(options(3, 7));
    assertThat(rows.stream().map(r -> (Integer) r.get(0)).sorted().toList())
        .isEqualTo(java.util.stream.IntStream.rangeClosed(5, 24).boxed().toList());
    for (Row r : rows) {
      assertThat((Double) r.get(1)).isBetween(-1.0, 1.0);
      assertThat((String) r.get(2)).hasSize(6);
      assertThat(r.get(3).toString()).startsWith("2023-12-31T23:5");
    }
  }

  @Test
  void rowsAreAFunctionOfTheSeedAndRowNumberNotOfTheSplitting() {
    List<Row> one = new ArrayList<>(readAll(options(1, 7)));
    List<Row> four = new ArrayList<>(readAll(options(4, 7)));
    java.util.Comparator<Row> byId = java.util.Comparator.comparing(r -> (Integer) r.get(0));
    one.sort(byId);
    four.sort(byId);
    assertThat(four).isEqualTo(one);
    assertThat(readAll(options(1, 8))).isNotEqualTo(one);
  }

  @Test
  void badOptionsFailNamingTheOption() {
    Map<String, String> o = options(1, 0);
    o.put("fields.name.kind", "sequence");
    assertThatThrownBy(() -> DatagenSplitReader.allSplits(SCHEMA, o))
        .hasMessageContaining("fields.name.kind = sequence needs an integer column");
  }
}
