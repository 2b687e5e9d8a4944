package dev.tideway.frontend.bench;

import dev.tideway.common.bench.Benchmark;
import dev.tideway.common.row.Row;
import dev.tideway.common.time.Clock;
import dev.tideway.frontend.Frontend;
import dev.tideway.frontend.meta.BatchReader;
import dev.tideway.frontend.meta.InMemoryCluster;
import dev.tideway.frontend.meta.PkRange;
import dev.tideway.frontend.meta.Relation;
import dev.tideway.frontend.pgwire.PgSession;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * {@code tideway bench batch-select [--rows 100000 --iterations 300 --warmup 100]}: one in-process
 * frontend session over an {@link InMemoryCluster} holding a table {@code t (k BIGINT PRIMARY KEY,
 * g INT, v VARCHAR)}, read through a key-ordered {@link BatchReader} (so a point lookup touches one
 * row, as over real storage). After a warm-up, times repeated executions of one prepared statement
 * per query kind: a point lookup with a bound parameter, a pk range, a filter on a non-key column,
 * an unfiltered count (what reading every row costs, for comparison with the non-key filter), a pk
 * filter the range does not imply ({@code k + 1 = ?}), and a query reading no storage; prints the
 * median and p99 in µs of each.
 *
 * <p>Single-threaded; the figures are wall-clock time of {@link PgSession#execute}.
 */
public final class BatchSelectBenchmark implements Benchmark {
  private static final Clock TIMER = Clock.system();

  /** One timed query kind: its SQL and the parameters of execution {@code i}. */
  private record Kind(
      String name, String sql, java.util.function.LongFunction<List<Object>> args) {}

  @Override
  public String name() {
    return "batch-select";
  }

  @Override
  public String description() {
    return "batch SELECT latency per query kind (pk point/range, non-key filter, no storage)";
  }

  @Override
  public void run(Options options, PrintWriter out) {
    options.checkOnly("rows", "iterations", "warmup");
    int rows = (int) options.getLong("rows", 100_000);
    int iterations = (int) options.getLong("iterations", 300);
    int warmup = (int) options.getLong("warmup", 100);
    InMemoryCluster cluster = new InMemoryCluster(TIMER);
    Frontend frontend = new Frontend(cluster, new KeyOrderedReader(cluster), cluster);
    PgSession s = frontend.open("bench", Frontend.DATABASE);
    run(s, "CREATE TABLE t (k BIGINT PRIMARY KEY, g INT, v VARCHAR)", List.of());
    Relation t =
        cluster.relations().stream().filter(r -> r.name().equals("t")).findFirst().orElseThrow();
    List<Row> data = new ArrayList<>(rows);
    for (long k = 0; k < rows; k++) {
      data.add(Row.of(k, (int) (k % 1000), "v" + k));
    }
    cluster.write(t.id(), List.of(), data);
    List<Kind> kinds =
        List.of(
            new Kind("point", "SELECT v FROM t WHERE k = $1", i -> List.of(i * 7919 % rows)),
            new Kind(
                "range",
                "SELECT count(*) FROM t WHERE k >= $1 AND k < $2",
                i -> List.of(i * 7919 % rows, i * 7919 % rows + 100)),
            new Kind(
                "nonkey", "SELECT count(*) FROM t WHERE g = $1", i -> List.of((int) (i % 1000))),
            new Kind("fullscan", "SELECT count(*) FROM t", i -> List.of()),
            new Kind("pkexpr", "SELECT v FROM t WHERE k + 1 = $1", i -> List.of(i * 7919 % rows)),
            new Kind("nostorage", "SELECT CAST($1 AS INT) + 1", i -> List.of((int) i)));
    StringBuilder summary = new StringBuilder("summary");
    for (Kind kind : kinds) {
      PgSession.Prepared p = s.prepare(kind.sql(), new int[0]);
      long[] micros = new long[iterations];
      for (int i = 0; i < warmup + iterations; i++) {
        long start = TIMER.nanoTime();
        s.execute(p, kind.args().apply(i), msg -> {});
        if (i >= warmup) {
          micros[i - warmup] = (TIMER.nanoTime() - start) / 1000;
        }
      }
      Arrays.sort(micros);
      long median = micros[iterations / 2];
      long p99 = micros[Math.min(iterations - 1, (int) Math.ceil(iterations * 0.99) - 1)];
      out.printf(
          Locale.ROOT, "%s_median_us=%d%n%s_p99_us=%d%n", kind.name(), median, kind.name(), p99);
      summary.append(String.format(Locale.ROOT, " %s=%d/%dus", kind.name(), median, p99));
      out.flush();
    }
    s.close();
    out.println(summary.append(" (median/p99, rows=").append(rows).append(')'));
    out.flush();
  }

  private static void run(PgSession s, String sql, List<Object> params) {
    s.execute(s.prepare(sql, new int[0]), params, msg -> {});
  }

  /**
   * Serves ranges of a single-column integral pk from a key-ordered copy of each table, rebuilt
   * when the epoch changes. Confined to the benchmark thread.
   */
  private static final class KeyOrderedReader implements BatchReader {
    private final InMemoryCluster cluster;
    private final java.util.Map<Integer, NavigableMap<Long, Row>> byTable =
        new java.util.HashMap<>();
    private long epoch = -1;

    KeyOrderedReader(InMemoryCluster cluster) {
      this.cluster = cluster;
    }

    @Override
    public List<Row> scan(int tableId, long epoch) {
      return cluster.scan(tableId, epoch);
    }

    @Override
    public List<Row> scan(int tableId, long epoch, PkRange range) {
      if (epoch != this.epoch) {
        byTable.clear();
        this.epoch = epoch;
      }
      NavigableMap<Long, Row> rows =
          byTable.computeIfAbsent(
              tableId,
              id -> {
                NavigableMap<Long, Row> m = new TreeMap<>();
                for (Row r : cluster.scan(id, epoch)) {
                  m.put(((Number) r.get(0)).longValue(), r);
                }
                return m;
              });
      if (!range.equal().isEmpty()) {
        Row r = rows.get(((Number) range.equal().get(0)).longValue());
        return r == null ? List.of() : List.of(r);
      }
      long lo = range.lower().map(b -> ((Number) b.value()).longValue()).orElse(Long.MIN_VALUE);
      boolean loIn = range.lower().map(PkRange.Bound::inclusive).orElse(true);
      long hi = range.upper().map(b -> ((Number) b.value()).longValue()).orElse(Long.MAX_VALUE);
      boolean hiIn = range.upper().map(PkRange.Bound::inclusive).orElse(true);
      if (lo > hi) {
        return List.of();
      }
      return List.copyOf(rows.subMap(lo, loIn, hi, hiIn).values());
    }
  }
}
