/**
 * The stream executors, one class per operator. Each is a {@link
 * dev.tideway.barrier.executor.Executor}: the actor thread pulls {@code next()}, and the executor
 * pulls its input(s) in turn. Barriers and watermarks pass through stateless executors unchanged (a
 * projection renumbers or drops watermarks).
 *
 * <p>Flow of one chunk through a typical chain: {@code source.SourceExecutor} or {@link
 * dev.tideway.compute.executor.DmlExecutor} emits it; {@link
 * dev.tideway.compute.executor.FilterExecutor} clears visibility bits (and turns a split {@code
 * U-}/{@code U+} pair into {@code -}/{@code +}); {@link
 * dev.tideway.compute.executor.ProjectExecutor}, {@link
 * dev.tideway.compute.executor.TumbleWindowExecutor} compute new columns with {@code compute.expr};
 * {@link dev.tideway.compute.executor.HopWindowExecutor} copies each row once per window.
 *
 * <p>Invariants every executor keeps (the barrier module's {@code CheckedExecutor} verifies them):
 * the first message is a barrier; chunks match {@code schema()}; a visible {@code U-} is directly
 * followed by its visible {@code U+}. All executors are confined to their actor's thread.
 */
package dev.tideway.compute.executor;
