package dev.tideway.compute.actor;

import dev.tideway.barrier.message.Barrier;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** An {@link ActorReporter} that queues what it is told, for tests to take in order. */
public final class RecordingReporter implements ActorReporter {
  /** One report. */
  public sealed interface Event {}

  public record Collected(int actorId, Barrier barrier) implements Event {}

  public record Exited(int actorId, boolean stopped) implements Event {}

  public record Failed(int actorId, Throwable cause) implements Event {}

  private final LinkedBlockingQueue<Event> events = new LinkedBlockingQueue<>();

  @Override
  public void barrierCollected(int actorId, Barrier barrier) {
    events.add(new Collected(actorId, barrier));
  }

  @Override
  public void actorExited(int actorId, boolean stopped) {
    events.add(new Exited(actorId, stopped));
  }

  @Override
  public void actorFailed(int actorId, Throwable cause) {
    events.add(new Failed(actorId, cause));
  }

  /** The next event, failing after 10 s. */
  public Event take() throws InterruptedException {
    Event e = events.poll(10, TimeUnit.SECONDS);
    if (e == null) {
      throw new AssertionError("no actor report within 10 s");
    }
    return e;
  }

  /** The next event if one arrives within {@code ms}, else null. */
  public Event poll(long ms) throws InterruptedException {
    return events.poll(ms, TimeUnit.MILLISECONDS);
  }
}
