package dev.tideway.it.slt;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.it.slt.SltRecord.SortMode;
import java.util.List;
import org.junit.jupiter.api.Test;

class ResultComparatorTest {
  private static final List<List<String>> ROWS =
      List.of(List.of("2", "b  c"), List.of("1", "a"), List.of("NULL", "(empty)"));

  @Test
  void nosortComparesInOrderWithWhitespaceNormalized() {
    assertThat(
            ResultComparator.compare(
                SortMode.NOSORT, ROWS, List.of("2 b c", "  1   a ", "NULL (empty)")))
        .isEmpty();
    assertThat(
            ResultComparator.compare(
                SortMode.NOSORT, ROWS, List.of("1 a", "2 b c", "NULL (empty)")))
        .as("order matters without a sort mode")
        .isPresent();
  }

  @Test
  void aWrongExpectedRowFailsAndTheReportShowsExpectedAndActual() {
    String report =
        ResultComparator.compare(SortMode.ROWSORT, ROWS, List.of("1 a", "2 b x", "NULL (empty)"))
            .orElseThrow();
    assertThat(report)
        .startsWith("expected 3 rows, got 3 (rowsorted)")
        .contains("    1 a\n")
        .contains("  - 2 b x\n  + 2 b c\n")
        .endsWith("(- expected, + actual)");
  }

  @Test
  void missingOrExtraRowsFail() {
    assertThat(ResultComparator.compare(SortMode.ROWSORT, ROWS, List.of("1 a", "2 b c")))
        .hasValueSatisfying(r -> assertThat(r).contains("expected 2 rows, got 3"));
    assertThat(ResultComparator.compare(SortMode.NOSORT, List.of(), List.of("1")))
        .hasValueSatisfying(r -> assertThat(r).contains("expected 1 rows, got 0").contains("- 1"));
    assertThat(ResultComparator.compare(SortMode.NOSORT, List.of(), List.of())).isEmpty();
    assertThat(
            ResultComparator.compare(
                SortMode.ROWSORT, ROWS, List.of("1 a", "2 b c", "NULL (empty)", "NULL (empty)")))
        .as("a multiset: a duplicate counts")
        .isPresent();
  }

  @Test
  void rowsortIgnoresOrderButNotRowBoundaries() {
    assertThat(
            ResultComparator.compare(
                SortMode.ROWSORT, ROWS, List.of("NULL (empty)", "2 b c", "1 a")))
        .isEmpty();
    assertThat(
            ResultComparator.compare(
                SortMode.ROWSORT,
                List.of(List.of("1", "2"), List.of("3", "4")),
                List.of("1 3", "2 4")))
        .isPresent();
  }

  @Test
  void valuesortComparesValuesAsAMultiset() {
    List<List<String>> rows = List.of(List.of("1", "2"), List.of("3", "4"));
    assertThat(ResultComparator.compare(SortMode.VALUESORT, rows, List.of("4", "3", "2", "1")))
        .isEmpty();
    assertThat(ResultComparator.compare(SortMode.VALUESORT, rows, List.of("1 3", "2 4"))).isEmpty();
    assertThat(ResultComparator.compare(SortMode.VALUESORT, rows, List.of("1", "2", "3", "5")))
        .hasValueSatisfying(r -> assertThat(r).contains("expected 4 values").contains("- 5"));
  }
}
