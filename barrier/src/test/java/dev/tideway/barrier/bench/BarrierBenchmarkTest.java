package dev.tideway.barrier.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tideway.common.bench.Benchmark;
import dev.tideway.common.bench.Benchmarks;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

class BarrierBenchmarkTest {
  @Test
  void isRegisteredAndPrintsTheFiguresTheIssueNames() {
    Benchmark b = Benchmarks.find("barrier").orElseThrow();
    StringWriter text = new StringWriter();
    b.run(
        Benchmark.Options.parse(
            List.of(
                "--nodes",
                "3",
                "--actors-per-node",
                "4",
                "--epochs",
                "20",
                "--jobs",
                "2",
                "--warmup-epochs",
                "5")),
        new PrintWriter(text));
    String[] lines = text.toString().split("\n");
    assertThat(text.toString())
        .contains("actors=12")
        .containsPattern("meta_us_per_epoch=\\d+\\.\\d\\d")
        .containsPattern("reporter_ns_per_update=\\d+\\.\\d\\d");
    assertThat(lines[lines.length - 1]).startsWith("summary: meta ");
  }

  @Test
  void rejectsUnknownOptions() {
    Benchmark b = new BarrierBenchmark();
    assertThatThrownBy(
            () ->
                b.run(
                    Benchmark.Options.parse(List.of("--node", "3")),
                    new PrintWriter(new StringWriter())))
        .hasMessageContaining("unknown option --node");
  }
}
