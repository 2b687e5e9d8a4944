package dev.tideway.barrier.sim;

import dev.tideway.common.random.RandomSource;

/**
 * An ordered link (actor → actor, node → meta, meta → node): each delivery takes a random delay in
 * {@code [minMs, maxMs]} but never overtakes the previous one. Different channels reorder freely.
 */
final class Channel {
  private final SimScheduler scheduler;
  private final RandomSource random;
  private final long minMs;
  private final long maxMs;
  private long lastDeliveryMs;

  Channel(SimScheduler scheduler, RandomSource random, long minMs, long maxMs) {
    this.scheduler = scheduler;
    this.random = random;
    this.minMs = minMs;
    this.maxMs = maxMs;
  }

  void send(String name, Runnable delivery) {
    long at = scheduler.now() + random.nextLong(minMs, maxMs + 1);
    at = Math.max(at, lastDeliveryMs);
    lastDeliveryMs = at;
    scheduler.at(at, name, delivery);
  }
}
