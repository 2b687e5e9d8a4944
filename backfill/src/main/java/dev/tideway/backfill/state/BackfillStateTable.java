package dev.tideway.backfill.state;

import dev.tideway.common.check.Checks;
import dev.tideway.common.plan.ColumnDesc;
import dev.tideway.common.plan.ColumnOrder;
import dev.tideway.common.plan.TableDesc;
import dev.tideway.common.row.Row;
import dev.tideway.common.types.DataType;
import dev.tideway.storage.api.StateStore;
import dev.tideway.storage.table.RowCodecs;
import dev.tideway.storage.table.StateTable;
import dev.tideway.storage.table.StateTables;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A backfill actor's persisted state: one row per vnode of the upstream table that the actor has
 * started, in the StreamScan's {@code backfillStateTable}. Layout (pk = {@code vnode}):
 *
 * <pre>
 * | # | column              | type                 | meaning                                       |
 * | 0 | vnode               | SMALLINT             | the upstream vnode this row describes (pk)     |
 * | 1..k | pk_0 .. pk_{k-1} | the upstream pk types| last snapshot pk emitted (all NULL: none yet)  |
 * | k+1 | row_count         | BIGINT               | snapshot rows of this vnode emitted so far     |
 * | k+2 | finished          | BOOLEAN              | the vnode's snapshot is exhausted              |
 * | k+3 | epoch (optional)  | BIGINT               | snapshot backfill only: the snapshot epoch     |
 * |     |                   |                      | while reading it, then the change-log epoch    |
 * |     |                   |                      | consumed through; {@link #EPOCH_FOLLOWING}     |
 * |     |                   |                      | once the actor follows its upstream            |
 * </pre>
 *
 * A vnode without a row is {@link VnodeProgress.NotStarted}; {@code finished = false} is {@link
 * VnodeProgress.InProgress}; {@code finished = true} is {@link VnodeProgress.Completed}. Only
 * changed vnodes are written, at each barrier under its {@code prev} epoch, so the state commits
 * with the checkpoint that also commits what the executor emitted. The arrangement and no-shuffle
 * kinds accept the table with or without the trailing {@code epoch} column (the layout RisingWave
 * uses for them); snapshot backfill requires it.
 *
 * <p>Confined to the executor's thread.
 */
public final class BackfillStateTable implements AutoCloseable {
  /** The {@code epoch} value of an actor that caught up and passes its upstream through. */
  public static final long EPOCH_FOLLOWING = Long.MAX_VALUE;

  /** A vnode's persisted row, decoded. {@code epoch} is -1 when the table has no epoch column. */
  public record Persisted(VnodeProgress progress, long epoch) {}

  private final TableDesc desc;
  private final UpstreamTable upstream;
  private final StateTable table;
  private final int pkLen;
  private final boolean hasEpoch;

  /** The row last written (or loaded) per vnode, so a rewrite is an update. */
  private final Row[] current = new Row[dev.tideway.common.vnode.VirtualNode.COUNT];

  private BackfillStateTable(TableDesc desc, UpstreamTable upstream, StateTable table) {
    this.desc = desc;
    this.upstream = upstream;
    this.table = table;
    this.pkLen = upstream.pkTypes().size();
    this.hasEpoch = desc.columns().size() == pkLen + 4;
  }

  /** The canonical layout for a scan of {@code upstream} (with the epoch column). */
  public static TableDesc layout(int tableId, String name, TableDesc upstream) {
    List<ColumnDesc> cols = new ArrayList<>();
    cols.add(new ColumnDesc(0, "vnode", DataType.SMALLINT));
    for (ColumnOrder o : upstream.pk()) {
      ColumnDesc c = upstream.columns().get(o.index());
      cols.add(new ColumnDesc(cols.size(), c.name(), c.type()));
    }
    cols.add(new ColumnDesc(cols.size(), "row_count", DataType.BIGINT));
    cols.add(new ColumnDesc(cols.size(), "finished", DataType.BOOLEAN));
    cols.add(new ColumnDesc(cols.size(), "epoch", DataType.BIGINT));
    return new TableDesc(
        tableId, name, cols, List.of(ColumnOrder.asc(0)), List.of(0), false, false);
  }

  /** Fails naming the expected layout when {@code desc} does not have it. */
  public static void checkLayout(TableDesc desc, UpstreamTable upstream, boolean needEpoch) {
    List<DataType> types = desc.types();
    int k = upstream.pkTypes().size();
    boolean ok =
        (types.size() == k + 3 || types.size() == k + 4)
            && (!needEpoch || types.size() == k + 4)
            && types.get(0).equals(DataType.SMALLINT)
            && types.subList(1, k + 1).equals(upstream.pkTypes())
            && types.get(k + 1).equals(DataType.BIGINT)
            && types.get(k + 2).equals(DataType.BOOLEAN)
            && (types.size() == k + 3 || types.get(k + 3).equals(DataType.BIGINT))
            && desc.pkIndices().equals(List.of(0));
    Checks.checkArgument(
        ok,
        "backfill state table %s ('%s') has columns %s with pk %s; expected pk [vnode] and columns"
            + " [vnode SMALLINT, <pk of table %s: %s>, row_count BIGINT, finished BOOLEAN%s]",
        desc.tableId(),
        desc.name(),
        types,
        desc.pkIndices(),
        upstream.tableId(),
        upstream.pkTypes(),
        needEpoch ? ", epoch BIGINT" : "[, epoch BIGINT]");
  }

  /** Opens the table; call {@link #init} on the first barrier. */
  public static BackfillStateTable open(
      StateStore store, TableDesc desc, UpstreamTable upstream, boolean needEpoch) {
    checkLayout(desc, upstream, needEpoch);
    RowCodecs codecs = StateTables.codecs(desc);
    StateTable t = StateTable.open(store, desc.tableId(), new int[] {0}, codecs);
    return new BackfillStateTable(desc, upstream, t);
  }

  public boolean hasEpochColumn() {
    return hasEpoch;
  }

  public void init(long epoch) {
    table.init(epoch);
  }

  /** The persisted state of {@code vnode} as this writer sees it, or null when it has no row. */
  public Persisted load(int vnode) {
    Row r = table.get(Row.of((short) vnode));
    current[vnode] = r;
    return r == null ? null : decode(r, upstream, pkLen, hasEpoch);
  }

  /** Writes the state of {@code vnode} in the current epoch ({@code epoch} ignored without it). */
  public void write(int vnode, VnodeProgress p, long epoch) {
    Checks.checkArgument(
        !(p instanceof VnodeProgress.NotStarted), "vnode %s: NotStarted is never written", vnode);
    Object[] v = new Object[desc.columns().size()];
    v[0] = (short) vnode;
    byte[] pos =
        p instanceof VnodeProgress.InProgress ip ? ip.pos() : ((VnodeProgress.Completed) p).pos();
    if (pos != null) {
      Row pk = upstream.decodePk(pos);
      for (int i = 0; i < pkLen; i++) {
        v[1 + i] = pk.get(i);
      }
    }
    v[pkLen + 1] = p.rows();
    v[pkLen + 2] = p.isCompleted();
    if (hasEpoch) {
      v[pkLen + 3] = epoch;
    }
    Row row = Row.wrap(v);
    Row old = current[vnode];
    if (old == null) {
      table.insert(row);
    } else if (!old.equals(row)) {
      table.update(old, row);
    }
    current[vnode] = row;
  }

  /** Seals the current epoch at a barrier {@code {curr, prev}}. */
  public void commit(long curr, long prev) {
    table.commit(curr, prev);
  }

  /** Every persisted vnode of a state table, read at a committed epoch (tests, tools). */
  public static Map<Integer, Persisted> readCommitted(
      StateStore store, TableDesc desc, UpstreamTable upstream, long epoch) {
    int k = upstream.pkTypes().size();
    boolean withEpoch = desc.columns().size() == k + 4;
    Map<Integer, Persisted> out = new TreeMap<>();
    try (StateTable.CloseableRows rows =
        StateTable.readCommitted(store, desc.tableId(), StateTables.codecs(desc), epoch)) {
      while (rows.hasNext()) {
        Row r = rows.next();
        out.put(((Number) r.get(0)).intValue(), decode(r, upstream, k, withEpoch));
      }
    }
    return out;
  }

  private static Persisted decode(Row r, UpstreamTable upstream, int k, boolean withEpoch) {
    long rows = (Long) r.get(k + 1);
    boolean finished = (Boolean) r.get(k + 2);
    long epoch = withEpoch && r.get(k + 3) != null ? (Long) r.get(k + 3) : -1;
    Object[] pk = new Object[k];
    for (int i = 0; i < k; i++) {
      pk[i] = r.get(1 + i);
    }
    byte[] pos = finished && rows == 0 ? null : upstream.encodePk(Row.wrap(pk));
    VnodeProgress p =
        finished ? new VnodeProgress.Completed(pos, rows) : new VnodeProgress.InProgress(pos, rows);
    return new Persisted(p, epoch);
  }

  @Override
  public void close() {
    table.close();
  }
}
