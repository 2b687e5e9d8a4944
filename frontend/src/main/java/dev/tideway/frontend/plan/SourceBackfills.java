package dev.tideway.frontend.plan;

import dev.tideway.common.plan.SourceBackfillNode;
import dev.tideway.common.plan.SourceConnector;
import dev.tideway.common.plan.StreamNode;
import dev.tideway.common.plan.TableDesc;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Field;
import dev.tideway.frontend.meta.Relation;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * How a view reads a source: a shared source through a {@link SourceBackfillNode} (and its state
 * table's layout), any other with a source of its own.
 */
final class SourceBackfills {
  private SourceBackfills() {}

  /**
   * One row per partition: where the backfill started and stands, the partition's end when it
   * began, its hand-off phase and offset, and whether every offset read held a row.
   */
  static final List<Field> STATE =
      List.of(
          new Field("split_id", DataType.VARCHAR),
          new Field("start_offset", DataType.BIGINT),
          new Field("next_offset", DataType.BIGINT),
          new Field("end_offset", DataType.BIGINT),
          new Field("phase", DataType.BIGINT),
          new Field("handoff_offset", DataType.BIGINT),
          new Field("exact", DataType.BOOLEAN));

  /** Makes a view's state table: its name's part, columns, key and distribution key. */
  interface StateTables {
    TableDesc create(String what, List<Field> fields, List<Integer> pk, List<Integer> dist);
  }

  /**
   * How a view reads source {@code r}: a source backfill paired with a shared source's job, else a
   * source of its own.
   */
  static StreamNode read(Relation r, StateTables tables) {
    SourceConnector c =
        SourceConnector.valueOf(
            r.properties().getOrDefault("connector", "datagen").toUpperCase(Locale.ROOT));
    if (r.sharedSource()) {
      return node(r, c, tables.create("source_backfill", STATE, List.of(0), List.of(0)));
    }
    List<Field> offsets =
        List.of(new Field("split_id", DataType.VARCHAR), new Field("offset", DataType.VARCHAR));
    return new StreamNode.Source(
        c,
        r.properties(),
        r.table().schema(),
        tables.create("source", offsets, List.of(0), List.of()));
  }

  /** The backfill of shared source {@code r} (connector {@code c}), keeping state in {@code t}. */
  static SourceBackfillNode node(Relation r, SourceConnector c, TableDesc t) {
    Map<String, String> props = new TreeMap<>(r.properties());
    props.remove(Relation.SHARED_SOURCE);
    return new SourceBackfillNode(
        r.id(),
        c,
        props,
        r.table().schema(),
        t,
        dev.tideway.common.plan.StreamNode.StreamScan.UNLIMITED);
  }
}
