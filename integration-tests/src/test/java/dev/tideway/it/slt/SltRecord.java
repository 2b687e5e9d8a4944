package dev.tideway.it.slt;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Pattern;

/**
 * One record of a {@code .slt} file, as {@link SltParser} produced it. Every record knows where it
 * came from ({@link Location}) so that a failure names the file and line.
 */
sealed interface SltRecord {
  /** The file and 1-based line where the record starts. */
  record Location(String file, int line) {
    @Override
    public String toString() {
      return file + ":" + line;
    }
  }

  Location location();

  /** How a query's rows are ordered before comparison. */
  enum SortMode {
    /** As returned (the query must order its rows itself). */
    NOSORT,
    /** Rows compared as a multiset. */
    ROWSORT,
    /** Values compared as a multiset, row boundaries ignored. */
    VALUESORT
  }

  /**
   * What a statement or query must do when it fails or succeeds.
   *
   * <p>{@link Ok}: succeed (and, with a count, affect that many rows); {@link Error}: fail with a
   * message matched by a regex (found anywhere in it) and/or containing a {@code ----} block's
   * text.
   */
  sealed interface Expect {}

  /** Success; {@code count} when the record was {@code statement count N}. */
  record Ok(OptionalLong count) implements Expect {}

  /** Failure with a message matching {@code pattern} (empty: any) and containing {@code text}. */
  record Error(Optional<Pattern> pattern, Optional<String> text) implements Expect {}

  /** {@code statement ok | statement error [regex] | statement count N}, then its SQL. */
  record Statement(Location location, String sql, Expect expect) implements SltRecord {}

  /**
   * {@code query <types> [nosort|rowsort|valuesort] [label] [retry N backoff Ds]}, its SQL, {@code
   * ----} and the expected rows ({@code query error ...} expects a failure instead).
   *
   * @param types one letter per column (I, T, R, ...), informative only, as in sqllogictest-rs
   * @param sortMode empty to use the file's {@code control sortmode}
   * @param expected expected lines, one per row (one per value under valuesort)
   * @param retries extra attempts when the rows do not match yet (for views that catch up)
   * @param backoffMillis wait between attempts
   */
  record Query(
      Location location,
      String types,
      Optional<SortMode> sortMode,
      String sql,
      List<String> expected,
      Expect expect,
      int retries,
      long backoffMillis)
      implements SltRecord {}

  /** {@code sleep 500ms | 1s | 2m}. */
  record Sleep(Location location, long millis) implements SltRecord {}

  /** A bare {@code flush} line: runs {@code FLUSH}. */
  record Flush(Location location) implements SltRecord {}

  /** {@code control sortmode rowsort}: the default sort mode for the rest of the file. */
  record SortModeControl(Location location, SortMode mode) implements SltRecord {}

  /** {@code halt}: stop running this file. */
  record Halt(Location location) implements SltRecord {}
}
