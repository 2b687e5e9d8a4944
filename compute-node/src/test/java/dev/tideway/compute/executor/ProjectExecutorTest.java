package dev.tideway.compute.executor;

import static dev.tideway.compute.testing.Drain.chunk;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tideway.barrier.executor.ExecutorInfo;
import dev.tideway.barrier.message.Watermark;
import dev.tideway.common.plan.ExprNode;
import dev.tideway.common.plan.FunctionKind;
import dev.tideway.common.types.DataType;
import dev.tideway.compute.expr.ExprException;
import dev.tideway.compute.testing.Drain;
import dev.tideway.compute.testing.MockSource;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProjectExecutorTest {
  static final ExecutorInfo INFO = new ExecutorInfo(1, 2, "Project");

  @Test
  void computesColumnsKeepingOpsAndVisibility() {
    MockSource src = MockSource.of("bigint", "varchar");
    src.pushBarrier(1)
        .pushChunk(
            """
            +  1 a
            U- 2 b
            U+ 3 c
            -  0 z D
            """)
        .pushBarrier(2);
    ExprNode x = new ExprNode.InputRef(0, DataType.BIGINT);
    ProjectExecutor p =
        ProjectExecutor.of(
            INFO,
            src,
            List.of(
                new ExprNode.InputRef(1, DataType.VARCHAR),
                ExprNode.FunctionCall.of(
                    FunctionKind.DIVIDE,
                    DataType.BIGINT,
                    new ExprNode.Literal(6L, DataType.BIGINT),
                    x)));
    // the hidden row would divide by zero: it is never evaluated
    assertThat(Drain.pretty(Drain.all(p)))
        .containsExactly(
            "B1",
            chunk(
                """
                  varchar bigint
                +  a 6
                U- b 3
                U+ c 2
                -  z . D
                """),
            "B2");
  }

  @Test
  void watermarksFollowPassedThroughColumnsOnly() {
    MockSource src = MockSource.of("bigint", "bigint");
    src.pushBarrier(1).pushWatermark(1, 10L).pushWatermark(0, 5L).pushBarrier(2);
    ProjectExecutor p =
        ProjectExecutor.of(
            INFO,
            src,
            List.of(
                ExprNode.FunctionCall.of(
                    FunctionKind.NEGATE,
                    DataType.BIGINT,
                    new ExprNode.InputRef(0, DataType.BIGINT)),
                new ExprNode.InputRef(1, DataType.BIGINT)));
    assertThat(Drain.all(p))
        .filteredOn(m -> m instanceof Watermark)
        .containsExactly(new Watermark(1, DataType.BIGINT, 10L));
  }

  @Test
  void evaluationErrorsSurfaceFromNext() {
    MockSource src = MockSource.of("int");
    src.pushBarrier(1).pushChunk("+ 2147483647");
    ProjectExecutor p =
        ProjectExecutor.of(
            INFO,
            src,
            List.of(
                ExprNode.FunctionCall.of(
                    FunctionKind.ADD,
                    DataType.INT,
                    new ExprNode.InputRef(0, DataType.INT),
                    new ExprNode.Literal(1, DataType.INT))));
    assertThatThrownBy(() -> Drain.all(p))
        .isInstanceOf(ExprException.class)
        .hasMessageContaining("integer out of range");
  }
}
