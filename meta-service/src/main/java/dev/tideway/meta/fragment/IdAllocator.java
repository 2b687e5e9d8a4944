package dev.tideway.meta.fragment;

import dev.tideway.common.check.Checks;

/**
 * Hands out consecutive ids from a starting point during one pure decision; the decision persists
 * {@link #next()} as the new {@code NextId}, so ids are never reused. Not thread-safe (one
 * decision, one allocator).
 */
public final class IdAllocator {
  private int next;

  public IdAllocator(int next) {
    Checks.checkArgument(next >= 1, "ids start at 1, got %s", next);
    this.next = next;
  }

  public int allocate() {
    Checks.checkState(next < Integer.MAX_VALUE, "id space exhausted");
    return next++;
  }

  /** The first id not handed out. */
  public int next() {
    return next;
  }
}
