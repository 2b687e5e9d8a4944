package dev.tideway.common.vnode;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.common.chunk.ColumnBuilder;
import dev.tideway.common.chunk.Op;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.chunk.StreamChunkBuilder;
import dev.tideway.common.row.Row;
import dev.tideway.common.testing.SqlArbitraries;
import dev.tideway.common.testing.SqlArbitraries.SchemaRows;
import dev.tideway.common.types.DataType;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** The row-to-vnode function: pinned, spread evenly, equal for SQL-equal keys, same per path. */
class VirtualNodeTest {
  /**
   * The vnode is persisted in every storage key and decides row ownership: these must never change.
   * A failure means existing tables would be read from the wrong vnodes; introduce a new {@link
   * VirtualNode#HASH_VERSION} instead of editing the expected values.
   */
  @Example
  void goldenVnodesOfHashVersion1() {
    List<DataType> types = List.of(DataType.BIGINT, DataType.VARCHAR);
    List<Row> keys =
        List.of(
            Row.of(0L, ""),
            Row.of(1L, "a"),
            Row.of(-1L, "tideway"),
            Row.of(42L, null),
            Row.of(null, null),
            Row.of(Long.MAX_VALUE, "\u00e9\0"),
            Row.of(1_000_000L, "x"));
    List<Integer> vnodes = new ArrayList<>();
    for (Row k : keys) {
      vnodes.add(VirtualNode.of(types, k));
    }
    assertThat(vnodes).isEqualTo(GOLDEN);
    assertThat(VirtualNode.of(List.of(), Row.EMPTY)).as("singleton").isZero();
  }

  static final List<Integer> GOLDEN = List.of(186, 189, 79, 113, 210, 78, 124);

  @Example
  void sequentialBigintsSpreadEvenlyOverAllVnodes() {
    int rows = 100_000;
    StreamChunkBuilder b = new StreamChunkBuilder(List.of(DataType.BIGINT), rows);
    ColumnBuilder col = b.column(0);
    for (long i = 0; i < rows; i++) {
      col.appendLong(i);
      b.appendOp(Op.INSERT);
    }
    int[] counts = new int[VirtualNode.COUNT];
    for (int v : VirtualNode.vnodes(b.build(), new int[] {0})) {
      counts[v]++;
    }
    double mean = (double) rows / VirtualNode.COUNT;
    for (int v = 0; v < VirtualNode.COUNT; v++) {
      assertThat((double) counts[v])
          .as("rows on vnode %s (mean %s)", v, mean)
          .isBetween(mean * 0.75, mean * 1.25);
    }
  }

  @Example
  void sqlEqualKeysShareAVnode() {
    assertThat(VirtualNode.of(List.of(DataType.DECIMAL), Row.of(new BigDecimal("1.0"))))
        .isEqualTo(VirtualNode.of(List.of(DataType.DECIMAL), Row.of(new BigDecimal("1.000"))));
    assertThat(VirtualNode.of(List.of(DataType.DOUBLE), Row.of(-0.0)))
        .isEqualTo(VirtualNode.of(List.of(DataType.DOUBLE), Row.of(0.0)));
  }

  @Provide
  Arbitrary<SchemaRows> schemaRows() {
    return SqlArbitraries.schemaRows(4, 20);
  }

  @Property(tries = 200)
  void chunkPathAndRowPathAgree(@ForAll("schemaRows") SchemaRows s) {
    int[] dist = new int[s.types().size()];
    for (int i = 0; i < dist.length; i++) {
      dist[i] = dist.length - 1 - i;
    }
    StreamChunkBuilder b = new StreamChunkBuilder(s.types(), s.rows().size());
    s.rows().forEach(r -> b.append(Op.INSERT, r));
    StreamChunk chunk = b.build();
    int[] vnodes = VirtualNode.vnodes(chunk, dist);
    VnodeHasher hasher = new VnodeHasher(s.types(), dist);
    List<DataType> keyTypes = new ArrayList<>();
    for (int i : dist) {
      keyTypes.add(s.types().get(i));
    }
    for (int i = 0; i < chunk.size(); i++) {
      Row row = s.rows().get(i);
      assertThat(vnodes[i]).isBetween(0, VirtualNode.COUNT - 1);
      assertThat(hasher.vnode(row)).as("row %s", row).isEqualTo(vnodes[i]);
      assertThat(hasher.vnode(chunk, i)).isEqualTo(vnodes[i]);
      assertThat(VirtualNode.of(keyTypes, row.project(dist))).isEqualTo(vnodes[i]);
    }
  }
}
