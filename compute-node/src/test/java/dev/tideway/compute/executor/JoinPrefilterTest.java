package dev.tideway.compute.executor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.common.plan.ExprNode;
import dev.tideway.common.plan.FunctionKind;
import dev.tideway.common.row.Row;
import dev.tideway.common.types.DataType;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Left rows (k, a), right rows (k, b): joined columns $0 $1 | $2 $3. */
class JoinPrefilterTest {
  private static ExprNode cmp(FunctionKind k, int x, int y) {
    return ExprNode.FunctionCall.of(
        k,
        DataType.BOOLEAN,
        new ExprNode.InputRef(x, DataType.BIGINT),
        new ExprNode.InputRef(y, DataType.BIGINT));
  }

  @Test
  void aComparisonWrittenRightSideFirstIsMirrored() {
    // b > a, i.e. a < b
    JoinPrefilter p = JoinPrefilter.of(Optional.of(cmp(FunctionKind.GREATER_THAN, 3, 1)), 2);
    assertThat(p.mayPass(Row.of(1L, 5L), Row.of(1L, 6L))).isTrue();
    assertThat(p.mayPass(Row.of(1L, 6L), Row.of(1L, 6L))).isFalse();
    assertThat(p.mayPass(Row.of(1L, null), Row.of(1L, 6L))).as("NULL is never true").isFalse();
  }

  @Test
  void onlyConjunctsComparingOneColumnOfEachSideAreUsed() {
    ExprNode and =
        ExprNode.FunctionCall.of(
            FunctionKind.AND,
            DataType.BOOLEAN,
            cmp(FunctionKind.GREATER_THAN_OR_EQUAL, 1, 3),
            cmp(FunctionKind.LESS_THAN, 0, 1)); // both left: left to the full condition
    JoinPrefilter p = JoinPrefilter.of(Optional.of(and), 2);
    assertThat(p.mayPass(Row.of(9L, 5L), Row.of(9L, 5L))).isTrue();
    assertThat(p.mayPass(Row.of(9L, 4L), Row.of(9L, 5L))).isFalse();
    ExprNode or =
        ExprNode.FunctionCall.of(
            FunctionKind.OR,
            DataType.BOOLEAN,
            cmp(FunctionKind.GREATER_THAN_OR_EQUAL, 1, 3),
            cmp(FunctionKind.LESS_THAN, 0, 1));
    assertThat(JoinPrefilter.of(Optional.of(or), 2)).as("a disjunct decides nothing").isNull();
  }
}
