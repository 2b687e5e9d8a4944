/**
 * Rate limiting of backfill snapshot reads: {@link dev.tideway.backfill.ratelimit.BackfillControl}
 * applies Pause, Resume, Add-paused and Throttle mutations and charges the rows read to common's
 * {@link dev.tideway.common.time.RateLimiter} (a token bucket banking one second of rows, on the
 * injected clock). Throttle 0 stops snapshot reads while barriers keep flowing.
 */
package dev.tideway.backfill.ratelimit;
