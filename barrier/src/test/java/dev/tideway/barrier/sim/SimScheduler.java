package dev.tideway.barrier.sim;

import dev.tideway.common.time.ManualClock;
import java.util.PriorityQueue;

/**
 * The single scheduler of the simulation: every node, actor, channel and meta event is a task at a
 * virtual time; ties run in scheduling order. Running a task first moves the shared {@link
 * ManualClock} to its time, so the run is a pure function of the seed.
 */
final class SimScheduler {
  private record Task(long atMs, long seq, String name, Runnable body) {}

  private final PriorityQueue<Task> queue =
      new PriorityQueue<>(
          (a, b) -> a.atMs != b.atMs ? Long.compare(a.atMs, b.atMs) : Long.compare(a.seq, b.seq));
  private final ManualClock clock;
  private final long startMs;
  private long seq;
  private long executed;
  private String lastEvent = "start";

  /** The last events, for failure messages. */
  private final java.util.ArrayDeque<String> recent = new java.util.ArrayDeque<>();

  static int recentCapacity = Integer.getInteger("tideway.sim.trace", 30);

  SimScheduler(ManualClock clock) {
    this.clock = clock;
    this.startMs = clock.currentTimeMillis();
  }

  /** Runs {@code body} {@code delayMs} from now. */
  void after(long delayMs, String name, Runnable body) {
    queue.add(new Task(clock.currentTimeMillis() + Math.max(0, delayMs), seq++, name, body));
  }

  /** Runs {@code body} at absolute virtual time {@code atMs} (not before now). */
  void at(long atMs, String name, Runnable body) {
    queue.add(new Task(Math.max(atMs, clock.currentTimeMillis()), seq++, name, body));
  }

  /** Runs the next task; false when none is left. */
  boolean step() {
    Task t = queue.poll();
    if (t == null) {
      return false;
    }
    long now = clock.currentTimeMillis();
    if (t.atMs > now) {
      clock.advanceMillis(t.atMs - now);
    }
    lastEvent = t.name;
    recent.addLast("t=" + (t.atMs - startMs) + " " + t.name);
    if (recent.size() > recentCapacity) {
      recent.pollFirst();
    }
    executed++;
    t.body.run();
    return true;
  }

  long now() {
    return clock.currentTimeMillis();
  }

  /** Virtual milliseconds since the start. */
  long elapsedMs() {
    return clock.currentTimeMillis() - startMs;
  }

  long executed() {
    return executed;
  }

  /** The last events, oldest first, one per line. */
  String recentEvents() {
    return String.join("\n  ", recent);
  }

  String lastEvent() {
    return lastEvent;
  }
}
