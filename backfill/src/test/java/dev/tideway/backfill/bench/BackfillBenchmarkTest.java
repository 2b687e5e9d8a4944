package dev.tideway.backfill.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.common.bench.Benchmark;
import dev.tideway.common.bench.Benchmarks;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A small run of each kind prints every figure, with monotone and accurate progress. */
class BackfillBenchmarkTest {
  @ParameterizedTest(name = "{0} churn {1}")
  @CsvSource({"arrangement, 0", "no-shuffle, 0.5", "snapshot, 0.5"})
  void smallRunPrintsTheFigures(String kind, String churn) {
    Benchmark b = Benchmarks.find("backfill").orElseThrow();
    StringWriter s = new StringWriter();
    b.run(
        Benchmark.Options.parse(
            List.of("--rows", "30000", "--kind", kind, "--churn", churn, "--interval-ms", "20")),
        new PrintWriter(s));
    String out = s.toString();
    assertThat(out)
        .contains("backfill_rows_per_s=", "raw_scan_rows_per_s=", "ratio=", "eta_error_at_50pct=")
        .contains("progress_monotone=true")
        .contains("snapshot_rows=");
    double err = Double.parseDouble(out.split("progress_max_abs_error=")[1].split("\n")[0]);
    assertThat(err).as(out).isLessThan(0.05);
  }
}
