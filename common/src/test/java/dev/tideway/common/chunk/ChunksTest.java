package dev.tideway.common.chunk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tideway.common.row.Row;
import dev.tideway.common.types.DataType;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChunksTest {
  @Test
  void parsesOpsValuesNullsAndInfersTypes() {
    StreamChunk c =
        Chunks.parse(
            """
              + 1 10 x
              - 2 .  'a b'
              U- 3 30 y
              U+ 3 31 y
            """);
    assertThat(c.types()).containsExactly(DataType.BIGINT, DataType.BIGINT, DataType.VARCHAR);
    assertThat(c.size()).isEqualTo(4);
    assertThat(c.cardinality()).isEqualTo(4);
    assertThat(c.op(0)).isEqualTo(Op.INSERT);
    assertThat(c.op(1)).isEqualTo(Op.DELETE);
    assertThat(c.op(2)).isEqualTo(Op.UPDATE_DELETE);
    assertThat(c.op(3)).isEqualTo(Op.UPDATE_INSERT);
    assertThat(c.row(1)).isEqualTo(Row.of(2L, null, "a b"));
    assertThat(c.row(3)).isEqualTo(Row.of(3L, 31L, "y"));
  }

  @Test
  void headerSetsTypesAndTrailingDHidesRows() {
    StreamChunk c =
        Chunks.parse(
            """
                 int  numeric(10,2) date       boolean
              +  1    1.5           2024-02-29 t
              -  2    .             2024-03-01 f       D
            """);
    assertThat(c.types())
        .containsExactly(DataType.INT, DataType.decimal(10, 2), DataType.DATE, DataType.BOOLEAN);
    assertThat(c.row(0))
        .isEqualTo(Row.of(1, new BigDecimal("1.50"), LocalDate.of(2024, 2, 29), true));
    assertThat(c.isVisible(0)).isTrue();
    assertThat(c.isVisible(1)).isFalse();
    assertThat(c.cardinality()).isEqualTo(1);
  }

  @Test
  void prettyRoundTripsEveryType() {
    String text =
        """
               boolean smallint int bigint real double numeric(12,3) varchar bytea date time timestamp timestamptz interval
            +  t       -3       7   9000   1.5  -2.25  123.456        'it''s' \\x00ff 1999-12-31 23:59:59.5 '2024-01-01 00:00:00' '2024-01-01 12:00:00+00' '1 year 2 mons 3 days 04:05:06'
            U- f       .        .   .      .    NaN    .              ''      .     .          .          .                     .                         .
            U+ .       0        0   0      0    -0     0.000          .       \\x    0001-01-01 00:00:00 '1970-01-01 00:00:00.000001' '1969-12-31 23:59:59.999999+00' '-00:00:01' D
            """;
    StreamChunk c = Chunks.parse(text);
    assertThat(Chunks.parse(Chunks.pretty(c))).isEqualTo(c);
    assertThat(Chunks.pretty(Chunks.parse(Chunks.pretty(c)))).isEqualTo(Chunks.pretty(c));
    assertThat(c.row(0).get(7)).isEqualTo("it's");
    assertThat(c.row(1).get(7)).isEqualTo("");
    assertThat(c.row(2).get(7)).isNull();
  }

  @Test
  void badInputNamesTheLine() {
    assertThatThrownBy(() -> Chunks.parse("+ 1 2\n+ 3"))
        .hasMessageContaining("line 2")
        .hasMessageContaining("expected 2 values");
    assertThatThrownBy(() -> Chunks.parse("int\n+ x"))
        .hasMessageContaining("line 2")
        .hasMessageContaining("integer");
    assertThatThrownBy(() -> Chunks.parse("+ 'abc")).hasMessageContaining("unterminated quote");
    assertThatThrownBy(() -> Chunks.parse("* 1")).hasMessageContaining("unknown type");
  }

  @Test
  void compactDropsHiddenRowsAndRepairsUpdatePairs() {
    StreamChunk c =
        Chunks.parse(
            """
              bigint
              +  1
              U- 2 D
              U+ 3
              U- 4
              U+ 5 D
              -  6
            """);
    assertThat(c.compact())
        .isEqualTo(
            Chunks.parse(
                """
                  bigint
                  + 1
                  + 3
                  - 4
                  - 6
                """));
  }

  @Test
  void withVisibilityOnlyHidesMore() {
    StreamChunk c = Chunks.parse("bigint\n+ 1\n+ 2 D\n+ 3");
    StreamChunk filtered = c.withVisibility(new boolean[] {false, true, true});
    assertThat(filtered.cardinality()).isEqualTo(1);
    assertThat(filtered.visibleRows())
        .containsExactly(new StreamChunk.OpRow(Op.INSERT, Row.of(3L)));
  }

  @Test
  void typedAppendsBuildTheSameChunkAsRows() {
    List<DataType> types = List.of(DataType.BIGINT, DataType.DOUBLE, DataType.VARCHAR);
    StreamChunkBuilder typed = new StreamChunkBuilder(types, 2);
    StreamChunkBuilder boxed = new StreamChunkBuilder(types, 2);
    for (int i = 0; i < 300; i++) {
      typed.column(0).appendLong(i);
      typed.column(1).appendDouble(i * 0.5);
      if (i % 7 == 0) {
        typed.column(2).appendNull();
      } else {
        typed.column(2).append("s" + i);
      }
      typed.appendOp(i % 2 == 0 ? Op.INSERT : Op.DELETE);
      boxed.append(
          i % 2 == 0 ? Op.INSERT : Op.DELETE,
          Row.of((long) i, i * 0.5, i % 7 == 0 ? null : "s" + i));
    }
    StreamChunk a = typed.build();
    assertThat(a).isEqualTo(boxed.build());
    assertThat(((LongVector) a.column(0)).getLong(299)).isEqualTo(299L);
    assertThat(a.column(2).isNull(294)).isTrue();
    assertThat(a.column(2).isNull(295)).isFalse();
  }

  @Test
  void rowWithWrongArityOrTypeIsRejected() {
    StreamChunkBuilder b = new StreamChunkBuilder(List.of(DataType.INT), 1);
    assertThatThrownBy(() -> b.append(Op.INSERT, Row.of(1, 2)))
        .hasMessageContaining("has 2 values");
    assertThatThrownBy(() -> b.append(Op.INSERT, Row.of("x")))
        .hasMessageContaining("integer")
        .hasMessageContaining("x");
    assertThatThrownBy(() -> b.column(0).appendLong(1))
        .hasMessageContaining("cannot append a long");
  }
}
