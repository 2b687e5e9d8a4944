package dev.tideway.compute.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tideway.common.bench.Benchmark;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The benchmark's materialized queries (q2, q5, q7) commit the same view the raw loop computes (so
 * the figures compare equal work), with several barriers per run, and it prints the figures the
 * issue names.
 */
class NexmarkBenchmarkTest {
  static List<String> run(String... args) {
    StringWriter s = new StringWriter();
    new NexmarkBenchmark().run(Benchmark.Options.parse(List.of(args)), new PrintWriter(s, true));
    return s.toString().lines().toList();
  }

  @ParameterizedTest
  @ValueSource(strings = {"q2:60000:2", "q7:60000:2", "q5:10000:2", "q5:10000:3"})
  void theCommittedViewEqualsTheRawLoopsResult(String queryEventsParallelism) {
    String[] qep = queryEventsParallelism.split(":");
    List<String> out =
        run(
            "--query",
            qep[0],
            "--events",
            qep[1],
            "--parallelism",
            qep[2],
            "--barrier-interval-ms",
            "5");
    assertThat(out).contains("view_matches_raw=true");
    assertThat(out.stream().filter(l -> l.startsWith("view_rows=")).findFirst().orElseThrow())
        .isNotEqualTo("view_rows=0");
  }

  @Test
  void printsTheFiguresWithTheSummaryLast() {
    List<String> out = run("--query", "q1", "--events", "50000", "--parallelism", "2");
    for (String key :
        List.of(
            "events_per_s=",
            "barrier_p50_ms=",
            "barrier_p99_ms=",
            "raw_events_per_s=",
            "efficiency=")) {
      assertThat(out).anyMatch(l -> l.startsWith(key));
    }
    assertThat(out.get(out.size() - 1)).startsWith("summary=nexmark q1 P=2");
  }

  @Test
  void anUnknownQueryIsNamed() {
    assertThatThrownBy(() -> run("--query", "q9"))
        .hasMessageContaining("--query must be one of q0, q1, q2, q5, q7, got 'q9'");
  }
}
