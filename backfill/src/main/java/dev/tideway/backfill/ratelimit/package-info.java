/**
 * Rate limiting of backfill snapshot reads: {@link dev.tideway.backfill.ratelimit.RateLimiter} (a
 * token bucket in rows per second on the injected clock) and {@link
 * dev.tideway.backfill.ratelimit.BackfillControl} (Pause, Resume, Add-paused and Throttle
 * mutations). Throttle 0 stops snapshot reads while barriers keep flowing.
 */
package dev.tideway.backfill.ratelimit;
