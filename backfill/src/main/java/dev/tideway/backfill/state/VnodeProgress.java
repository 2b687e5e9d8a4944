package dev.tideway.backfill.state;

import dev.tideway.common.check.Checks;

/**
 * How far the snapshot of one vnode has been read. Transitions only move forward: {@link
 * NotStarted} to {@link InProgress} or {@link Completed}; {@link InProgress} to a later {@link
 * InProgress} or to {@link Completed}. Row counts never decrease.
 *
 * <p>{@code pos} is the memcomparable pk (the storage key without table id and vnode) of the last
 * snapshot row emitted: every row of the vnode at or before it has been emitted.
 */
public sealed interface VnodeProgress
    permits VnodeProgress.NotStarted, VnodeProgress.InProgress, VnodeProgress.Completed {

  /** Snapshot rows of this vnode emitted so far. */
  long rows();

  /** True when every snapshot row of the vnode has been emitted. */
  default boolean isCompleted() {
    return this instanceof Completed;
  }

  /** Nothing read yet: no upstream row of the vnode is visible downstream. */
  record NotStarted() implements VnodeProgress {
    public static final NotStarted INSTANCE = new NotStarted();

    @Override
    public long rows() {
      return 0;
    }
  }

  /** Rows up to and including {@code pos} were emitted. */
  record InProgress(byte[] pos, long rows) implements VnodeProgress {
    public InProgress {
      Checks.checkNotNull(pos, "in-progress position");
      Checks.checkArgument(rows > 0, "in-progress vnode must have read rows, got %s", rows);
    }
  }

  /** The whole vnode was emitted; {@code pos} is its last pk, or null when it was empty. */
  record Completed(byte[] pos, long rows) implements VnodeProgress {}

  /** The next state after reading {@code n} more rows ending at {@code lastPos}. */
  default VnodeProgress advance(byte[] lastPos, long n) {
    Checks.checkState(!isCompleted(), "vnode already completed, cannot read %s more rows", n);
    return n == 0 ? this : new InProgress(lastPos, rows() + n);
  }

  /** The state once the vnode's snapshot is exhausted. */
  default VnodeProgress complete() {
    if (this instanceof InProgress p) {
      return new Completed(p.pos(), p.rows());
    }
    Checks.checkState(this instanceof NotStarted, "vnode completed twice (%s)", this);
    return new Completed(null, 0);
  }
}
