package dev.tideway.backfill.ratelimit;

import dev.tideway.barrier.message.Barrier;
import dev.tideway.barrier.message.Mutation;
import dev.tideway.common.time.Clock;
import dev.tideway.common.time.RateLimiter;

/**
 * Whether a backfill actor may read its snapshot now: the cluster {@code Pause}/{@code Resume}
 * state, an {@code Add} that starts it paused, and its rate limit from {@code Throttle} mutations
 * (common's {@link RateLimiter}, banking one second of rows, on the injected clock). {@link
 * #onBarrier} applies the barrier's mutation; it takes effect for the epoch the barrier opens.
 *
 * <p>Confined to the backfill's actor thread.
 */
public final class BackfillControl {
  private final int actorId;
  private final Clock clock;
  private final RateLimiter limiter;
  private boolean paused;

  public BackfillControl(int actorId, Clock clock, long initialRowsPerSecond) {
    this.actorId = actorId;
    this.clock = clock;
    this.limiter =
        new RateLimiter(initialRowsPerSecond, RateLimiter.Burst.ONE_SECOND, clock.nanoTime());
  }

  /** Applies the mutation a barrier carries. */
  public void onBarrier(Barrier b) {
    Mutation m = b.mutation();
    if (m instanceof Mutation.Pause) {
      paused = true;
    } else if (m instanceof Mutation.Resume) {
      paused = false;
    } else if (m instanceof Mutation.Add add && add.actors().contains(actorId)) {
      paused = add.paused();
    } else if (m instanceof Mutation.Throttle t) {
      Long rate = t.rowsPerSecondByActor().get(actorId);
      if (rate != null) {
        limiter.setRate(rate, clock.nanoTime());
      }
    }
  }

  public boolean paused() {
    return paused;
  }

  /** Neither paused nor limited to 0 (a positive limit may still have no tokens right now). */
  public boolean mayRead() {
    return !paused && limiter.rate() != 0;
  }

  /** Rows that may be read now. */
  public long available() {
    return mayRead() ? limiter.available(clock.nanoTime()) : 0;
  }

  public void consume(long rows) {
    limiter.consume(rows);
  }

  public long rate() {
    return limiter.rate();
  }
}
