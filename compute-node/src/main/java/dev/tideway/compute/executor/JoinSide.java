package dev.tideway.compute.executor;

import dev.tideway.common.row.Row;

/**
 * The state of one input of a {@link HashJoinExecutor}: the rows it holds per join key, stored in a
 * state table, and the cache in front of it. Two layouts: {@link JoinSideState} (rows with a
 * multiplicity, or an append-only side's rows by identity) and {@link SortedJoinSide} (rows with a
 * multiplicity, sorted under each key by the column a range condition bounds). Confined to the
 * join's actor thread.
 */
interface JoinSide {
  /** A row under a key and how many times the side holds it. */
  @FunctionalInterface
  interface RowVisitor {
    void visit(Row row, long times);
  }

  /** The join key columns of this side's rows. */
  int[] keys();

  /** Whether the side's input only inserts (a delete fails the join). */
  boolean appendOnly();

  /**
   * Initialises the table at {@code epoch}; drops every cached row (a rebuilt join starts cold).
   */
  void init(long epoch);

  /**
   * Visits the rows under {@code key} that may match {@code probe}, a row of the other side: every
   * row under the key, or a superset of the rows a range condition can pair with it. The caller
   * still checks the condition.
   */
  void forEachMatch(Row key, Row probe, RowVisitor visitor);

  /**
   * Adds {@code sign} (+1 or -1) of {@code row} under {@code key}. Returns false, writing nothing,
   * for a change the side can tell is inconsistent (a delete of a row it does not hold).
   */
  boolean apply(Row key, Row row, int sign);

  /** Seals the epoch's writes and starts writing {@code curr}. */
  void commit(long curr, long prev);

  /** Trims the cache to its capacity (call at barriers). */
  void evict();

  /** Keys plus rows cached (for tests of the bound). */
  long cachedUnits();
}
