package dev.tideway.common.chunk;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.common.row.Row;
import dev.tideway.common.testing.SqlArbitraries;
import dev.tideway.common.testing.SqlArbitraries.SchemaRows;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The chunk DSL round-trips every chunk: random schemas of every type, random values including NULL
 * and extremes (strings with quotes, newlines and NUL), random ops and hidden rows. jqwik prints
 * the seed of a failure; replay it with {@code @Property(seed = "...")}.
 */
class ChunkDslPropertyTest {
  record Case(SchemaRows data, List<Op> ops, List<Boolean> hidden) {}

  @Provide
  Arbitrary<Case> chunks() {
    return SqlArbitraries.schemaRows(6, 20)
        .flatMap(
            data ->
                Combinators.combine(
                        Arbitraries.of(Op.class).list().ofSize(data.rows().size()),
                        Arbitraries.of(true, false).list().ofSize(data.rows().size()))
                    .as((ops, hidden) -> new Case(data, ops, hidden)));
  }

  private static StreamChunk build(Case c) {
    StreamChunkBuilder b = new StreamChunkBuilder(c.data().types(), c.data().rows().size());
    for (int i = 0; i < c.data().rows().size(); i++) {
      Row row = c.data().rows().get(i);
      b.append(c.ops().get(i), row);
      if (c.hidden().get(i)) {
        b.hideLast();
      }
    }
    return b.build();
  }

  @Property(tries = 300)
  void prettyThenParseGivesTheSameChunk(@ForAll("chunks") Case c) {
    StreamChunk chunk = build(c);
    String text = Chunks.pretty(chunk);
    StreamChunk parsed = Chunks.parse(text);
    assertThat(parsed).as("parsed back from:%n%s", text).isEqualTo(chunk);
    assertThat(Chunks.pretty(parsed)).isEqualTo(text);
  }

  @Property(tries = 200)
  void compactKeepsExactlyTheVisibleRows(@ForAll("chunks") Case c) {
    StreamChunk chunk = build(c);
    StreamChunk compact = chunk.compact();
    assertThat(compact.size()).isEqualTo(chunk.cardinality());
    List<Row> visible = chunk.visibleRows().stream().map(StreamChunk.OpRow::row).toList();
    List<Row> kept = compact.visibleRows().stream().map(StreamChunk.OpRow::row).toList();
    assertThat(kept).isEqualTo(visible);
    for (int i = 0; i < compact.size(); i++) {
      assertThat(compact.op(i).isInsert())
          .as("row %s keeps its direction", i)
          .isEqualTo(chunk.visibleRows().get(i).op().isInsert());
    }
  }
}
