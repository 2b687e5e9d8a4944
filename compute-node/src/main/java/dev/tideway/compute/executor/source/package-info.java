/**
 * Source executors and the connectors they read.
 *
 * <p>Flow: (1) {@link dev.tideway.compute.executor.source.SourceExecutor} takes its first barrier
 * from its {@link dev.tideway.compute.executor.source.BarrierInbox} and restores each split's
 * offset from the {@link dev.tideway.compute.executor.source.SplitStateStore}; (2) while no barrier
 * waits, it reads chunks from its {@link dev.tideway.compute.executor.source.SplitReader}s within
 * the budget of its {@link dev.tideway.common.time.RateLimiter}; (3) on each barrier it persists
 * every split's next offset with the epoch the barrier closes, then emits the barrier.
 *
 * <p>Invariant (exactly-once): a reader's rows are a pure function of (split, offset) ({@link
 * dev.tideway.compute.executor.source.DatagenSplitReader} and {@link
 * dev.tideway.compute.executor.source.NexmarkSplitReader} derive every random value from the
 * configured seed and the row's or event's number), and the persisted offset of epoch E is exactly
 * the position after the last row emitted before the barrier closing E. Recovery restarts from the
 * last committed epoch's offsets, so rows of uncommitted epochs are re-emitted identically and no
 * row is lost or repeated in committed state.
 */
package dev.tideway.compute.executor.source;
