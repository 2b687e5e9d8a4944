package dev.tideway.frontend.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.common.time.Clock;
import dev.tideway.frontend.Frontend;
import dev.tideway.frontend.meta.InMemoryCluster;
import dev.tideway.frontend.pgwire.PgSession;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Golden stream plans for Nexmark queries written as RisingWave writes them (sources created with
 * {@code connector = 'nexmark'}). {@code -Dtideway.updateGoldens=true} rewrites the files under
 * {@code src/test/resources/plans}; review the diff before committing it.
 */
class NexmarkPlanGoldenTest {
  private static PgSession session;

  @BeforeAll
  static void setUp() {
    session = Frontend.inMemory(new InMemoryCluster(Clock.system())).open("root", "dev");
    for (String t : List.of("Person", "Auction", "Bid")) {
      run(
          "CREATE SOURCE "
              + t.toLowerCase()
              + " WITH (connector = 'nexmark', nexmark.table.type = '"
              + t
              + "')");
    }
  }

  private static List<Object[]> run(String sql) {
    PgSession.Prepared p = session.prepare(sql, new int[0]);
    return session.execute(p, List.of(), m -> {}).rows();
  }

  private static String query(String name) throws IOException {
    return Files.readString(
            Path.of("src/test/resources/plans/" + name + ".sql"), StandardCharsets.UTF_8)
        .trim();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "q0",
        "q1",
        "q2",
        "q3",
        "q5",
        "q7",
        "q8",
        "mv_on_mv",
        "join_pairing",
        "max_of_counts",
        "growing_join_keys",
        "max_by_moving_key"
      })
  void explainMatchesGolden(String name) throws IOException {
    String sql = query(name);
    String plan =
        run("EXPLAIN CREATE MATERIALIZED VIEW " + name + " AS " + sql).stream()
                .map(r -> (String) r[0])
                .collect(Collectors.joining("\n"))
            + "\n";
    Path golden = Path.of("src/test/resources/plans/" + name + ".plan");
    if (Boolean.getBoolean("tideway.updateGoldens") || !Files.exists(golden)) {
      Files.writeString(golden, plan, StandardCharsets.UTF_8);
    }
    assertThat(plan).isEqualTo(Files.readString(golden, StandardCharsets.UTF_8));
    // the plan is also accepted as a real job
    run("CREATE MATERIALIZED VIEW " + name + " AS " + sql);
  }
}
