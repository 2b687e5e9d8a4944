package dev.tideway.it.slt;

import dev.tideway.it.slt.SltRecord.SortMode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Decides whether a query's rows match a record's expected lines, as sqllogictest-rs's default
 * validator does: each value and each expected line is normalized (trimmed, runs of whitespace made
 * one space), a row is its values joined by one space. {@code rowsort} compares rows as a multiset;
 * {@code valuesort} compares the whitespace-separated values as a multiset, ignoring row boundaries
 * (so expected values may be written one per line or row by row).
 *
 * <p>Pure functions.
 */
final class ResultComparator {
  private ResultComparator() {}

  /** sqllogictest-rs's normalizer: trim, collapse whitespace. */
  static String normalize(String s) {
    return String.join(" ", s.strip().split("\\s+"));
  }

  /** One row as a line: normalized values joined by a space. */
  static String line(List<String> row) {
    List<String> parts = new ArrayList<>();
    for (String v : row) {
      parts.add(normalize(v));
    }
    return String.join(" ", parts);
  }

  /** Empty when the rows match; otherwise a description of the difference. */
  static Optional<String> compare(SortMode mode, List<List<String>> actual, List<String> expected) {
    List<String> got = new ArrayList<>();
    List<String> want = new ArrayList<>();
    switch (mode) {
      case NOSORT, ROWSORT -> {
        actual.forEach(r -> got.add(line(r)));
        expected.forEach(e -> want.add(normalize(e)));
        if (mode == SortMode.ROWSORT) {
          got.sort(null);
          want.sort(null);
        }
      }
      case VALUESORT -> {
        actual.forEach(r -> r.forEach(v -> tokens(v, got)));
        expected.forEach(e -> tokens(e, want));
        got.sort(null);
        want.sort(null);
      }
      default -> throw new IllegalStateException("sort mode " + mode);
    }
    if (got.equals(want)) {
      return Optional.empty();
    }
    return Optional.of(describe(mode, got, want));
  }

  private static void tokens(String s, List<String> out) {
    String n = normalize(s);
    if (!n.isEmpty()) {
      out.addAll(Arrays.asList(n.split(" ")));
    }
  }

  private static String describe(SortMode mode, List<String> got, List<String> want) {
    StringBuilder sb = new StringBuilder();
    String unit = mode == SortMode.VALUESORT ? "values" : "rows";
    sb.append("expected ")
        .append(want.size())
        .append(' ')
        .append(unit)
        .append(", got ")
        .append(got.size())
        .append(mode == SortMode.NOSORT ? "" : " (" + mode.name().toLowerCase() + "ed)")
        .append('\n');
    int n = Math.max(got.size(), want.size());
    for (int k = 0; k < n; k++) {
      String w = k < want.size() ? want.get(k) : null;
      String g = k < got.size() ? got.get(k) : null;
      if (w != null && w.equals(g)) {
        sb.append("    ").append(w).append('\n');
      } else {
        if (w != null) {
          sb.append("  - ").append(w).append('\n');
        }
        if (g != null) {
          sb.append("  + ").append(g).append('\n');
        }
      }
    }
    sb.append("(- expected, + actual)");
    return sb.toString();
  }
}
