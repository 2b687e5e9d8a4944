package dev.tideway.backfill.bench;

import dev.tideway.backfill.upstream.PollableExecutor;
import dev.tideway.barrier.executor.ExecutorInfo;
import dev.tideway.barrier.message.Message;
import dev.tideway.common.time.Clock;
import dev.tideway.common.types.Schema;
import java.util.ArrayDeque;

/**
 * The benchmark's upstream: messages with arrival times on the clock. {@link #poll()} returns the
 * next one once it has arrived, else null (the backfill then reads its snapshot); {@link #next()}
 * returns it at once, skipping the idle wait, so only the backfill's own work is timed.
 *
 * <p>Single-threaded (the benchmark driver).
 */
final class BenchUpstream implements PollableExecutor {
  private record Timed(long atNanos, Message m) {}

  private final Schema schema;
  private final Clock clock;
  private final ArrayDeque<Timed> queue = new ArrayDeque<>();

  BenchUpstream(Schema schema, Clock clock) {
    this.schema = schema;
    this.clock = clock;
  }

  void push(long atNanos, Message m) {
    queue.add(new Timed(atNanos, m));
  }

  @Override
  public Message poll() {
    Timed t = queue.peek();
    if (t == null || t.atNanos() > clock.nanoTime()) {
      return null;
    }
    return queue.poll().m();
  }

  @Override
  public Message next() {
    Timed t = queue.poll();
    return t == null ? null : t.m();
  }

  @Override
  public Schema schema() {
    return schema;
  }

  @Override
  public ExecutorInfo info() {
    return new ExecutorInfo(1, 1, "BenchUpstream");
  }
}
