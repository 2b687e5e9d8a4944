package dev.tideway.compute.executor;

import static dev.tideway.compute.testing.Drain.chunk;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.barrier.executor.ExecutorInfo;
import dev.tideway.common.plan.ExprNode;
import dev.tideway.common.plan.FunctionKind;
import dev.tideway.common.types.DataType;
import dev.tideway.compute.testing.Drain;
import dev.tideway.compute.testing.MockSource;
import org.junit.jupiter.api.Test;

class FilterExecutorTest {
  static final ExecutorInfo INFO = new ExecutorInfo(1, 3, "Filter");

  /** {@code $0 > 5}. */
  static ExprNode greaterThanFive() {
    return ExprNode.FunctionCall.of(
        FunctionKind.GREATER_THAN,
        DataType.BOOLEAN,
        new ExprNode.InputRef(0, DataType.BIGINT),
        new ExprNode.Literal(5L, DataType.BIGINT));
  }

  @Test
  void hidesRowsWhosePredicateIsFalseOrNull() {
    MockSource src = MockSource.of("bigint", "varchar");
    src.pushBarrier(1)
        .pushChunk(
            """
            + 1 a
            + 6 b
            + . c
            - 7 d
            + 9 e D
            """)
        .pushBarrier(2);
    assertThat(Drain.pretty(Drain.all(new FilterExecutor(INFO, src, greaterThanFive()))))
        .containsExactly(
            "B1",
            chunk(
                """
                  bigint varchar
                + 1 a D
                + 6 b
                + . c D
                - 7 d
                + 9 e D
                """),
            "B2");
  }

  @Test
  void anUpdateCrossingThePredicateBecomesADeleteOrAnInsert() {
    MockSource src = MockSource.of("bigint");
    src.pushBarrier(1)
        .pushChunk(
            """
            U- 9
            U+ 1
            U- 2
            U+ 8
            U- 6
            U+ 7
            U- 1
            U+ 2
            """)
        .pushBarrier(2);
    assertThat(Drain.pretty(Drain.all(new FilterExecutor(INFO, src, greaterThanFive()))))
        .containsExactly(
            "B1",
            chunk(
                """
                   bigint
                -  9
                U+ 1 D
                U- 2 D
                +  8
                U- 6
                U+ 7
                U- 1 D
                U+ 2 D
                """),
            "B2");
  }

  @Test
  void aChunkWithNothingLeftIsNotEmitted() {
    MockSource src = MockSource.of("bigint");
    src.pushBarrier(1).pushChunk("+ 1\n+ 2").pushBarrier(2);
    assertThat(Drain.pretty(Drain.all(new FilterExecutor(INFO, src, greaterThanFive()))))
        .containsExactly("B1", "B2");
  }
}
