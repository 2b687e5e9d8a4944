package dev.tideway.frontend.batch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.common.random.RandomSource;
import dev.tideway.common.row.Row;
import dev.tideway.common.time.Clock;
import dev.tideway.frontend.Frontend;
import dev.tideway.frontend.meta.BatchReader;
import dev.tideway.frontend.meta.InMemoryCluster;
import dev.tideway.frontend.meta.PkRange;
import dev.tideway.frontend.meta.Relation;
import dev.tideway.frontend.pgwire.PgSession;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Pk push-down through {@link PkScan}: random predicates, with literals and with parameters bound
 * anew on each execution of one prepared statement, give the rows of a filtered full scan, while
 * the reader is asked for a range whenever the predicate fixes one; the plan keeps the filter in
 * compiled code (no interpreter), so it is compiled once per prepared statement.
 */
class PkScanTest {
  private static final Clock CLOCK = Clock.system();
  private static InMemoryCluster cluster;
  private static RangeReader ranged;
  private static PgSession pushed;
  private static PgSession reference;

  /**
   * Returns exactly the rows of the range plus, now and then, rows outside it (a reader may return
   * more than the range); records the ranges asked for. Confined to the test thread.
   */
  private static final class RangeReader implements BatchReader {
    final List<PkRange> asked = new ArrayList<>();
    final RandomSource random = RandomSource.seeded(7);

    @Override
    public List<Row> scan(int tableId, long epoch) {
      return cluster.scan(tableId, epoch);
    }

    @Override
    public List<Row> scan(int tableId, long epoch, PkRange range) {
      asked.add(range);
      List<Row> out = new ArrayList<>();
      for (Row r : cluster.scan(tableId, epoch)) {
        if (range.contains(r.project(new int[] {0, 1}), PkScanTest::compare)
            || random.chance(0.05)) {
          out.add(r);
        }
      }
      return out;
    }
  }

  private static int compare(Object x, Object y) {
    return Long.compare(((Number) x).longValue(), ((Number) y).longValue());
  }

  @BeforeAll
  static void setUp() {
    cluster = new InMemoryCluster(CLOCK);
    ranged = new RangeReader();
    pushed = new Frontend(cluster, ranged, cluster).open("t", Frontend.DATABASE);
    // the reference reads every row: the default range scan is a full scan
    BatchReader full = (table, epoch) -> cluster.scan(table, epoch);
    reference = new Frontend(cluster, full, cluster).open("t", Frontend.DATABASE);
    exec(pushed, "CREATE TABLE t (a INT, b BIGINT, g INT, v VARCHAR, PRIMARY KEY (a, b))");
    Relation t =
        cluster.relations().stream().filter(r -> r.name().equals("t")).findFirst().orElseThrow();
    List<Row> rows = new ArrayList<>();
    RandomSource data = RandomSource.seeded(11);
    for (int a = 0; a < 20; a++) {
      for (long b = 0; b < 30; b++) {
        if (data.chance(0.8)) {
          rows.add(Row.of(a, b, data.nextInt(5), "v" + a + "_" + b));
        }
      }
    }
    cluster.write(t.id(), List.of(), rows);
  }

  @AfterAll
  static void tearDown() {
    pushed.close();
    reference.close();
  }

  private static List<String> exec(PgSession s, String sql, Object... params) {
    PgSession.Result r = s.execute(s.prepare(sql, new int[0]), List.of(params), m -> {});
    return render(r);
  }

  private static List<String> render(PgSession.Result r) {
    List<String> out = new ArrayList<>();
    for (Object[] row : r.rows()) {
      out.add(Arrays.toString(row));
    }
    out.sort(null);
    return out;
  }

  /** One random conjunct: SQL with {@code $n} placeholders or literals, appending parameters. */
  private static String conjunct(RandomSource r, List<Object> params, boolean literals) {
    String col = r.chance(0.6) ? "a" : r.chance(0.7) ? "b" : "g";
    String[] ops = {"=", "<", "<=", ">", ">="};
    int v = r.nextInt(-2, 32);
    String value;
    if (literals) {
      value = Integer.toString(v);
    } else {
      params.add(col.equals("b") ? (Object) (long) v : (Object) v);
      value = "$" + params.size();
    }
    return switch (r.nextInt(8)) {
      case 0 -> col + " BETWEEN " + value + " AND " + (v + r.nextInt(6));
      case 1 -> col + " + 1 = " + value;
      case 2 -> value + " " + ops[r.nextInt(ops.length)] + " " + col;
      default -> col + " " + ops[r.nextInt(ops.length)] + " " + value;
    };
  }

  @Test
  void randomPredicatesEqualAFilteredFullScan() {
    RandomSource r = RandomSource.fromPropertyOr(20261130L);
    int rangedScans = 0;
    for (int q = 0; q < 60; q++) {
      boolean literals = r.nextBoolean();
      List<Object> params = new ArrayList<>();
      List<String> conjuncts = new ArrayList<>();
      int n = r.nextInt(1, 4);
      for (int i = 0; i < n; i++) {
        conjuncts.add(conjunct(r, params, literals));
      }
      String sql = "SELECT a, b, g, v FROM t WHERE " + String.join(" AND ", conjuncts);
      ranged.asked.clear();
      assertThat(exec(pushed, sql, params.toArray()))
          .as("seed %s: %s with %s", r.seed(), sql, params)
          .isEqualTo(exec(reference, sql, params.toArray()));
      rangedScans += ranged.asked.size();
    }
    assertThat(rangedScans).as("seed %s: some predicates pushed a range", r.seed()).isPositive();
  }

  @Test
  void oneCachedPlanPushesEachExecutionsOwnRange() {
    String sql = "SELECT b, v FROM t WHERE a = $1 AND b >= $2 AND g <> $3";
    PgSession.Prepared p = pushed.prepare(sql, new int[0]);
    PgSession.Prepared full = reference.prepare(sql, new int[0]);
    for (int a = 0; a < 20; a += 3) {
      List<Object> params = List.of(a, (long) a, a % 5);
      ranged.asked.clear();
      assertThat(render(pushed.execute(p, params, m -> {})))
          .as("a = %s", a)
          .isEqualTo(render(reference.execute(full, params, m -> {})));
      assertThat(ranged.asked)
          .as("the range of this execution's parameters")
          .containsExactly(
              new PkRange(
                  List.of(a),
                  java.util.Optional.of(new PkRange.Bound((long) a, true)),
                  java.util.Optional.empty()));
    }
  }

  @Test
  void theFilterStaysInTheCompiledPlanAboveTheRangedScan() {
    List<String> plan = exec(pushed, "EXPLAIN SELECT v FROM t WHERE a = 3 AND g = 1");
    String text = String.join("\n", plan);
    assertThat(text)
        .as("no interpreted scan: the filter is generated code, compiled once per plan")
        .doesNotContain("Interpreter")
        .doesNotContain("Bindable")
        .contains("PkScan");
    assertThat(text)
        .as("the whole condition, g = 1 included, is evaluated by the plan above the scan")
        .containsPattern("EnumerableCalc.*expr#\\d+=\\[1\\].*\\$condition");
    assertThat(text).contains("Scan t: pk range a = 3");
    assertThat(String.join("\n", exec(pushed, "EXPLAIN SELECT v FROM t WHERE g = 1")))
        .as("a filter without a pk comparison keeps the plain scan")
        .doesNotContain("PkScan")
        .contains("Scan t: full scan");
  }
}
