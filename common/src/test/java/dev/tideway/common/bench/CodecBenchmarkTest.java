package dev.tideway.common.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code tideway bench codec} is registered and prints its figures as key=value lines. */
class CodecBenchmarkTest {
  @Test
  void registeredAndPrintsEveryFigureWithTheSummaryLast() {
    Benchmark bench = Benchmarks.find("codec").orElseThrow();
    StringWriter text = new StringWriter();
    bench.run(
        Benchmark.Options.parse(List.of("--rows", "3000", "--rounds", "1")), new PrintWriter(text));
    List<String> lines = text.toString().lines().toList();
    assertThat(lines).allMatch(l -> l.matches("[a-z_]+=.*"), "key=value lines");
    assertThat(lines.get(lines.size() - 1)).startsWith("summary=codec rows=3000");
    for (String key :
        List.of(
            "key_encode_ns_per_row",
            "key_decode_ns_per_row",
            "value_encode_ns_per_row",
            "value_decode_ns_per_row",
            "chunk_build_ns_per_row",
            "vnode_ns_per_row")) {
      assertThat(lines).anyMatch(l -> l.matches(key + "=[0-9]+\\.[0-9]"));
    }
    assertThat(lines).contains("key_bytes_per_row=37.0");
  }

  @Test
  void rejectsUnknownOptions() {
    Benchmark bench = Benchmarks.find("codec").orElseThrow();
    assertThatThrownBy(
            () ->
                bench.run(
                    Benchmark.Options.parse(List.of("--row", "5")),
                    new PrintWriter(new StringWriter())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown option --row");
  }
}
