package dev.tideway.compute.executor;

import static dev.tideway.compute.testing.Drain.chunk;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.barrier.executor.ExecutorInfo;
import dev.tideway.common.plan.ExprNode;
import dev.tideway.common.plan.FunctionKind;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Schema;
import dev.tideway.compute.expr.ExprErrorSink;
import dev.tideway.compute.expr.ExprException;
import dev.tideway.compute.testing.Drain;
import dev.tideway.compute.testing.MockSource;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A streaming job's evaluation error turns that row's value into NULL and is reported; it never
 * fails the executor (RisingWave's non-strict mode): {@code SELECT x, 10 / x FROM t} over {@code 0,
 * 1, 2, NULL} holds {@code 0 NULL / 1 10 / 2 5 / NULL NULL}.
 */
class NonStrictEvaluationTest {
  static final ExecutorInfo INFO = new ExecutorInfo(1, 2, "Project");
  final List<ExprException> reported = new ArrayList<>();
  final ExprErrorSink sink = reported::add;

  static ExprNode tenDividedBy(int column) {
    return ExprNode.FunctionCall.of(
        FunctionKind.DIVIDE,
        DataType.INT,
        new ExprNode.Literal(10, DataType.INT),
        new ExprNode.InputRef(column, DataType.INT));
  }

  @Test
  void aDivisionByZeroIsNullForThatRowOnly() {
    MockSource src = MockSource.of("int");
    src.pushBarrier(1).pushChunk("+ 0\n+ 1\n+ 2\n+ .\n- 0").pushBarrier(2);
    ProjectExecutor p =
        new ProjectExecutor(
            INFO,
            src,
            List.of(new ExprNode.InputRef(0, DataType.INT), tenDividedBy(0)),
            Schema.ofTypes(DataType.INT, DataType.INT),
            sink);
    assertThat(Drain.pretty(Drain.all(p)))
        .containsExactly(
            "B1",
            chunk(
                """
                  int int
                + 0 .
                + 1 10
                + 2 5
                + . .
                - 0 .
                """),
            "B2");
    // the retraction of the row that got NULL retracts that NULL, and is reported again
    assertThat(reported).hasSize(2);
    assertThat(reported.get(0).reason()).isEqualTo(ExprException.Reason.DIVISION_BY_ZERO);
    assertThat(reported.get(0).getMessage()).contains("DIVIDE(10::integer, 0::integer)");
  }

  @Test
  void everyFailingRowOfALargeChunkIsFoundAndTheOthersKeepTheirValues() {
    StringBuilder rows = new StringBuilder();
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      int x = i % 7 == 0 ? 0 : i;
      rows.append("+ ").append(x).append('\n');
      expected.add(x == 0 ? null : Integer.toString(10 / x));
    }
    MockSource src = MockSource.of("int");
    src.pushBarrier(1).pushChunk(rows.toString()).pushBarrier(2);
    ProjectExecutor p =
        new ProjectExecutor(
            INFO, src, List.of(tenDividedBy(0)), Schema.ofTypes(DataType.INT), sink);
    List<String> got = new ArrayList<>();
    for (var c : Drain.chunks(Drain.all(p))) {
      for (int i = 0; i < c.size(); i++) {
        Object v = c.column(0).get(i);
        got.add(v == null ? null : v.toString());
      }
    }
    assertThat(got).isEqualTo(expected);
    assertThat(reported).hasSize(143);
  }

  @Test
  void aFilterWhosePredicateFailsHidesTheRow() {
    MockSource src = MockSource.of("int");
    src.pushBarrier(1).pushChunk("+ 0\n+ 5\n+ 20").pushBarrier(2);
    ExprNode predicate =
        ExprNode.FunctionCall.of(
            FunctionKind.GREATER_THAN,
            DataType.BOOLEAN,
            tenDividedBy(0),
            new ExprNode.Literal(1, DataType.INT));
    FilterExecutor f = new FilterExecutor(INFO, src, predicate, sink);
    assertThat(Drain.pretty(Drain.all(f)))
        .containsExactly(
            "B1",
            chunk(
                """
                  int
                + 0 D
                + 5
                + 20 D
                """),
            "B2");
    assertThat(reported).hasSize(1);
  }

  @Test
  void strictEvaluationStillFailsForBatchAndKernelTests() {
    MockSource src = MockSource.of("int");
    src.pushBarrier(1).pushChunk("+ 0").pushBarrier(2);
    ProjectExecutor p = ProjectExecutor.of(INFO, src, List.of(tenDividedBy(0)));
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> Drain.all(p))
        .isInstanceOf(ExprException.class);
  }
}
