package dev.tideway.compute.node;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.common.time.ManualClock;
import dev.tideway.compute.expr.ExprErrorSink;
import dev.tideway.compute.expr.ExprException;
import dev.tideway.protocol.compute.ExpressionErrorCount;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ExpressionErrorsTest {
  final ManualClock clock = new ManualClock(1_000_000);
  final PrometheusRegistry registry = new PrometheusRegistry();
  final ExpressionErrors errors = new ExpressionErrors(clock, registry);

  static ExprException divisionByZero(int x) {
    return new ExprException(
        ExprException.Reason.DIVISION_BY_ZERO,
        "division by zero: DIVIDE(" + x + "::integer, 0::integer)");
  }

  @Test
  void countsPerJobFragmentAndKindKeepingTheLatestMessage() throws Exception {
    ExprErrorSink a = errors.sinkFor(7, 3);
    ExprErrorSink b = errors.sinkFor(8, 5);
    a.report(divisionByZero(10));
    clock.advanceMillis(5);
    a.report(divisionByZero(11));
    a.report(new ExprException(ExprException.Reason.NUMERIC_OUT_OF_RANGE, "integer out of range"));
    b.report(divisionByZero(12));
    assertThat(errors.counts())
        .containsExactly(
            new ExpressionErrorCount(
                7,
                3,
                "DIVISION_BY_ZERO",
                2,
                "division by zero: DIVIDE(11::integer, 0::integer)",
                1_000_005),
            new ExpressionErrorCount(
                7, 3, "NUMERIC_OUT_OF_RANGE", 1, "integer out of range", 1_000_005),
            new ExpressionErrorCount(
                8,
                5,
                "DIVISION_BY_ZERO",
                1,
                "division by zero: DIVIDE(12::integer, 0::integer)",
                1_000_005));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    new PrometheusTextFormatWriter(false).write(out, registry.scrape());
    assertThat(out.toString(StandardCharsets.UTF_8))
        .contains(
            "tideway_stream_expression_errors_total{fragment=\"3\",job=\"7\",kind=\"DIVISION_BY_ZERO\"} 2.0");
  }
}
