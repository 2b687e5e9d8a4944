/**
 * How a backfill reads its upstream without blocking on it: {@link
 * dev.tideway.backfill.upstream.PollableExecutor} (a non-blocking poll) and {@link
 * dev.tideway.backfill.upstream.Upstream}, which uses it when the upstream offers it and otherwise
 * pumps the upstream from a dedicated thread into a small bounded queue.
 */
package dev.tideway.backfill.upstream;
