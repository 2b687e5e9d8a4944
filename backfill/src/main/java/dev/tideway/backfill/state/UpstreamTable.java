package dev.tideway.backfill.state;

import dev.tideway.common.check.Checks;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.key.KeySerde;
import dev.tideway.common.key.OrderType;
import dev.tideway.common.plan.ColumnOrder;
import dev.tideway.common.plan.TableDesc;
import dev.tideway.common.row.GrowableBytes;
import dev.tideway.common.row.Row;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Field;
import dev.tideway.common.types.Schema;
import dev.tideway.common.value.ValueSerde;
import dev.tideway.common.vnode.VnodeHasher;
import dev.tideway.storage.api.Keys;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The upstream table as backfill sees it: storage keys {@code table_id | vnode | memcomparable(pk)}
 * and whole-row values, encoded exactly as the materialize executor writes them (pk with {@link
 * KeySerde} in the pk's column orders, value with {@link ValueSerde}, vnode with {@link
 * VnodeHasher} over the distribution key). Also projects rows and chunks onto the scan's output
 * columns.
 *
 * <p>Not thread-safe (reuses encode buffers): one per executor.
 */
public final class UpstreamTable {
  private final TableDesc desc;
  private final int[] pkIndices;
  private final KeySerde pkSerde;
  private final ValueSerde values;
  private final VnodeHasher hasher;
  private final int[] outputColumns;
  private final GrowableBytes buf = new GrowableBytes(64);

  public UpstreamTable(TableDesc desc, List<Integer> outputColumns) {
    this.desc = Checks.checkNotNull(desc, "upstream table");
    this.pkIndices = desc.pkIndices().stream().mapToInt(Integer::intValue).toArray();
    List<DataType> pkTypes = new ArrayList<>();
    List<OrderType> orders = new ArrayList<>();
    for (ColumnOrder o : desc.pk()) {
      pkTypes.add(desc.types().get(o.index()));
      orders.add(new OrderType(o.descending(), o.nullsFirst()));
    }
    this.pkSerde = new KeySerde(pkTypes, orders);
    this.values = new ValueSerde(desc.types());
    this.hasher =
        new VnodeHasher(
            desc.types(), desc.distributionKey().stream().mapToInt(Integer::intValue).toArray());
    this.outputColumns = outputColumns.stream().mapToInt(Integer::intValue).toArray();
    for (int c : this.outputColumns) {
      Checks.checkArgument(
          c < desc.columns().size(),
          "scan of table %s outputs column %s but the table has %s columns",
          desc.tableId(),
          c,
          desc.columns().size());
    }
  }

  public int tableId() {
    return desc.tableId();
  }

  public TableDesc desc() {
    return desc;
  }

  /** The pk column types in key order. */
  public List<DataType> pkTypes() {
    return pkSerde.types();
  }

  /** The scan's output columns (indices into the table's columns). */
  public int[] outputColumns() {
    return outputColumns.clone();
  }

  /** The schema of the scan's output. */
  public Schema outputSchema() {
    List<Field> fields = new ArrayList<>();
    for (int c : outputColumns) {
      fields.add(desc.columns().get(c).field());
    }
    return new Schema(fields);
  }

  /** The vnode of row {@code i} of a chunk of the table's columns. */
  public int vnode(StreamChunk chunk, int i) {
    return hasher.vnode(chunk, i);
  }

  /** The vnode of every row of a chunk of the table's columns. */
  public void vnodes(StreamChunk chunk, int[] out) {
    hasher.vnodes(chunk, out);
  }

  /** The memcomparable pk of row {@code i} of a chunk of the table's columns. */
  public byte[] pk(StreamChunk chunk, int i) {
    buf.reset();
    pkSerde.encodeTo(buf, chunk, i, pkIndices);
    return buf.toByteArray();
  }

  /** The memcomparable pk of a full row. */
  public byte[] pk(Row row) {
    buf.reset();
    pkSerde.encodeTo(buf, row, pkIndices);
    return buf.toByteArray();
  }

  /** Encodes a pk given as a row of pk values. */
  public byte[] encodePk(Row pk) {
    return pkSerde.encode(pk);
  }

  /** Decodes memcomparable pk bytes into a row of pk values. */
  public Row decodePk(byte[] pk) {
    return pkSerde.decode(pk);
  }

  /** The full storage key of a pk in a vnode. */
  public byte[] key(int vnode, byte[] pk) {
    return Keys.key(desc.tableId(), vnode, pk);
  }

  /** The first storage key strictly after {@code pk} in {@code vnode} ({@code pk} + 0x00). */
  public byte[] keyAfter(int vnode, byte[] pk) {
    byte[] k = Keys.key(desc.tableId(), vnode, pk);
    return Arrays.copyOf(k, k.length + 1);
  }

  /** Decodes a stored value into a full row. */
  public Row decodeValue(byte[] value) {
    return values.decode(value);
  }

  /** Encodes a full row as a stored value. */
  public byte[] encodeValue(Row row) {
    return values.encode(row);
  }

  /** A full row's output columns. */
  public Row project(Row row) {
    return row.project(outputColumns);
  }

  /** A chunk of the table's columns narrowed to the output columns (ops and visibility kept). */
  public StreamChunk project(StreamChunk chunk) {
    var cols = new dev.tideway.common.chunk.ColumnVector[outputColumns.length];
    for (int i = 0; i < cols.length; i++) {
      cols[i] = chunk.column(outputColumns[i]);
    }
    return chunk.withColumns(cols);
  }
}
