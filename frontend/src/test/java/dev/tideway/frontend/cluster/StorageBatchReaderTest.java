package dev.tideway.frontend.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.common.plan.ColumnDesc;
import dev.tideway.common.plan.ColumnOrder;
import dev.tideway.common.plan.TableDesc;
import dev.tideway.common.random.RandomSource;
import dev.tideway.common.row.Row;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Datums;
import dev.tideway.frontend.meta.PkRange;
import dev.tideway.storage.api.Epochs;
import dev.tideway.storage.api.StorageOptions;
import dev.tideway.storage.api.SyncResult;
import dev.tideway.storage.engine.StorageEngine;
import dev.tideway.storage.objectstore.InMemoryObjectStore;
import dev.tideway.storage.table.StateTable;
import dev.tideway.storage.table.StateTables;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Batch reads restricted to a pk range return exactly the rows of a full scan that lie in the
 * range, for random ranges over tables with a composite pk (one column descending), a distribution
 * key that is a pk prefix, and a singleton table; rows live partly in SSTs and partly in a later
 * epoch's overwrite and deletes.
 */
class StorageBatchReaderTest {
  private final StorageEngine store =
      StorageEngine.open(new InMemoryObjectStore(), StorageOptions.defaults());

  @AfterEach
  void close() {
    store.close();
  }

  /** (a INT, s VARCHAR, c BIGINT, v INT), pk (a, s, c DESC), distributed by {@code dist}. */
  private static TableDesc table(int id, List<Integer> dist) {
    return new TableDesc(
        id,
        "t" + id,
        List.of(
            new ColumnDesc(0, "a", DataType.INT),
            new ColumnDesc(1, "s", DataType.VARCHAR),
            new ColumnDesc(2, "c", DataType.BIGINT),
            new ColumnDesc(3, "v", DataType.INT)),
        List.of(
            new ColumnOrder(0, false, false),
            new ColumnOrder(1, false, false),
            new ColumnOrder(2, true, false)),
        dist,
        false,
        false);
  }

  private static Row randomRow(RandomSource r) {
    return Row.of(r.nextInt(20) - 5, "s" + r.nextInt(4), r.nextLong(40) - 10, r.nextInt(1000));
  }

  private void load(TableDesc t, long firstEpoch, RandomSource r) throws Exception {
    Set<Row> pks = new HashSet<>();
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < 1500; i++) {
      Row row = randomRow(r);
      if (pks.add(row.project(new int[] {0, 1, 2}))) {
        rows.add(row);
      }
    }
    try (StateTable st = StateTables.open(store, t)) {
      st.init(Epochs.of(firstEpoch));
      rows.forEach(st::insert);
      commit(st, firstEpoch);
      for (int i = 0; i < rows.size(); i += 7) {
        st.delete(rows.get(i)); // some rows deleted in a later epoch
      }
      for (int i = 3; i < rows.size(); i += 11) {
        Row old = rows.get(i);
        st.update(old, Row.of(old.get(0), old.get(1), old.get(2), -1));
      }
      commit(st, firstEpoch + 1);
    }
  }

  private void commit(StateTable st, long e) throws Exception {
    st.commit(Epochs.of(e + 1));
    SyncResult r = store.sync(Epochs.of(e)).get();
    store.commitEpoch(Epochs.of(e), r.ssts(), r.statsDelta());
  }

  private static PkRange randomRange(RandomSource r) {
    int eq = r.nextInt(4);
    List<Object> equal = new ArrayList<>();
    Object[] sample = {r.nextInt(20) - 5, "s" + r.nextInt(4), r.nextLong(40) - 10};
    for (int i = 0; i < eq; i++) {
      equal.add(sample[i]);
    }
    if (eq == 3) {
      return new PkRange(equal, Optional.empty(), Optional.empty());
    }
    Object lo = eq == 0 ? r.nextInt(24) - 7 : eq == 1 ? "s" + r.nextInt(5) : r.nextLong(44) - 12;
    Object hi = eq == 0 ? r.nextInt(24) - 7 : eq == 1 ? "s" + r.nextInt(5) : r.nextLong(44) - 12;
    Optional<PkRange.Bound> lower =
        r.nextInt(3) == 0
            ? Optional.empty()
            : Optional.of(new PkRange.Bound(lo, r.nextInt(2) == 0));
    Optional<PkRange.Bound> upper =
        r.nextInt(3) == 0
            ? Optional.empty()
            : Optional.of(new PkRange.Bound(hi, r.nextInt(2) == 0));
    return new PkRange(equal, lower, upper);
  }

  private static final List<DataType> PK_TYPES =
      List.of(DataType.INT, DataType.VARCHAR, DataType.BIGINT);

  private static List<Row> inRange(List<Row> rows, PkRange range) {
    List<Row> out = new ArrayList<>();
    for (Row row : rows) {
      Row pk = row.project(new int[] {0, 1, 2});
      Comparator<Object> cmp = (x, y) -> Datums.compare(PK_TYPES.get(typeIndex(x)), x, y);
      if (range.contains(pk, cmp)) {
        out.add(row);
      }
    }
    out.sort(Comparator.comparing(Row::toString));
    return out;
  }

  private static int typeIndex(Object v) {
    return v instanceof Integer ? 0 : v instanceof String ? 1 : 2;
  }

  @Test
  void rangeScansEqualFilteredFullScans() throws Exception {
    RandomSource r = RandomSource.fromPropertyOr(20261130L);
    Map<Integer, TableDesc> tables =
        Map.of(
            1, table(1, List.of(0)), // by a: an equal a finds the one vnode
            2, table(2, List.of(0, 2)), // by (a, c): c after a range column
            3, table(3, List.of())); // singleton
    long e = 1;
    for (TableDesc t : tables.values()) {
      load(t, e, r.split());
      e += 2;
    }
    StorageBatchReader reader = new StorageBatchReader(store, tables::get);
    long epoch = store.committedEpoch();
    for (TableDesc t : tables.values()) {
      List<Row> all = reader.scan(t.tableId(), epoch);
      assertThat(all).as("seed %s table %s", r.seed(), t.tableId()).hasSizeGreaterThan(500);
      for (int i = 0; i < 300; i++) {
        PkRange range = randomRange(r);
        List<Row> pushed = reader.scan(t.tableId(), epoch, range);
        List<Row> expected = inRange(all, range);
        List<Row> got = new ArrayList<>(pushed);
        got.sort(Comparator.comparing(Row::toString));
        assertThat(got)
            .as("seed %s table %s range %s", r.seed(), t.tableId(), range)
            .isEqualTo(expected);
      }
    }
  }
}
