package dev.tideway.common.plan;

import dev.tideway.common.check.Checks;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Shared validation helpers for plan records; messages name the record, the field and the value.
 */
final class PlanChecks {
  private PlanChecks() {}

  /** Each index in {@code [0, size)} and no index twice. */
  static void checkIndices(List<Integer> indices, int size, String what) {
    Set<Integer> seen = new HashSet<>();
    for (int i : indices) {
      Checks.checkArgument(
          i >= 0 && i < size, "%s: index %s out of [0, %s) in %s", what, i, size, indices);
      Checks.checkArgument(seen.add(i), "%s: index %s appears twice in %s", what, i, indices);
    }
  }

  /** Each index in {@code [0, size)}; repeats allowed. */
  static void checkInRange(List<Integer> indices, int size, String what) {
    for (int i : indices) {
      Checks.checkArgument(
          i >= 0 && i < size, "%s: index %s out of [0, %s) in %s", what, i, size, indices);
    }
  }

  /** Unknown wire code of an enum; names the enum and the code. */
  /** Fails naming {@code what} when the two type lists differ. */
  static void checkSameTypes(
      String what, List<dev.tideway.common.types.DataType> expected, List<?> actual) {
    Checks.checkArgument(
        expected.equals(actual), "%s: expected types %s, got %s", what, expected, actual);
  }

  static IllegalArgumentException unknownCode(String enumName, int code) {
    return new IllegalArgumentException("unknown " + enumName + " code " + code);
  }
}
