package dev.tideway.frontend.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.common.time.Clock;
import dev.tideway.frontend.Frontend;
import dev.tideway.frontend.meta.InMemoryCluster;
import dev.tideway.frontend.pgwire.PgSession;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Where a view's table scans go. A join's fragment never holds a {@code StreamScan}: two scans of
 * one table in one actor would share the channel from the table's actor (their barriers never
 * align, and the view never finishes creating), and a join must read inputs it can poll.
 */
class ScanPlacementTest {
  private PgSession session;

  @BeforeEach
  void setUp() {
    session = Frontend.inMemory(new InMemoryCluster(Clock.system())).open("root", "dev");
    run("CREATE TABLE u (k INT PRIMARY KEY, v INT)");
    run("CREATE TABLE w (k INT PRIMARY KEY, v INT)");
  }

  private List<String> run(String sql) {
    PgSession.Prepared p = session.prepare(sql, new int[0]);
    return session.execute(p, List.of(), m -> {}).rows().stream()
        .map(r -> r.length == 0 ? "" : String.valueOf(r[0]))
        .collect(Collectors.toList());
  }

  private List<String> fragments(String query) {
    return run("EXPLAIN CREATE MATERIALIZED VIEW m AS " + query).stream()
        .filter(l -> l.trim().startsWith("Fragment "))
        .map(String::trim)
        .toList();
  }

  @Test
  void aSelfJoinOnTheTableKeyScansTheTableTwiceInTwoFragments() {
    List<String> f = fragments("SELECT x.k, x.v, y.v AS v2 FROM u x JOIN u y ON x.k = y.k");
    assertThat(f)
        .containsExactly(
            "Fragment 0: StreamScan -> 2 HASH[0]",
            "Fragment 1: StreamScan -> 2 HASH[0]",
            "Fragment 2: Materialize");
    // and the plan is accepted as a job
    run(
        "CREATE MATERIALIZED VIEW self_join AS SELECT x.k, x.v, y.v AS v2 FROM u x JOIN u y ON x.k = y.k");
  }

  @Test
  void aJoinOfTwoTablesOnTheirKeysReadsEachThroughItsOwnFragment() {
    List<String> f = fragments("SELECT x.k FROM u x JOIN w y ON x.k = y.k");
    assertThat(f).hasSize(3).filteredOn(l -> l.contains("StreamScan")).hasSize(2);
    assertThat(f.get(f.size() - 1)).isEqualTo("Fragment " + (f.size() - 1) + ": Materialize");
  }

  @Test
  void aScanWithNoJoinAboveItStaysInTheViewsFragment() {
    assertThat(fragments("SELECT k, v + 1 AS v1 FROM u WHERE v > 3"))
        .containsExactly("Fragment 0: Materialize");
  }
}
