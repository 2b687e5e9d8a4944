package dev.tideway.compute.actor;

import dev.tideway.barrier.executor.CheckedExecutor;
import dev.tideway.barrier.executor.Executor;
import dev.tideway.barrier.message.Barrier;
import dev.tideway.barrier.message.Message;
import dev.tideway.common.check.Checks;
import dev.tideway.common.exec.Threads;
import dev.tideway.common.fault.FailPoints;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One actor: a thread that pulls its executor chain's root in a loop and reports every barrier the
 * root emits to the {@link ActorReporter}. The root is usually a dispatcher, so when a barrier is
 * reported it has already been sent downstream; that is what makes "collected" mean "this actor is
 * done with the epoch".
 *
 * <p>Thread confinement: the chain is pulled by the actor thread only. {@link #start} and {@link
 * #drop} are called by the node's control loop; {@link #status()} is readable from any thread.
 *
 * <p>States ({@link Status}): {@code CREATED → RUNNING → (STOPPED | ENDED | FAILED | DROPPED)}.
 * Exactly one terminal report is made per actor: {@link ActorReporter#actorExited} on a stop
 * barrier or end of stream, {@link ActorReporter#actorFailed} on an exception, nothing when the
 * node dropped the actor.
 */
public final class StreamActor {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(StreamActor.class);

  /** Fails the actor thread just before it pulls its next message (tests: actor crash). */
  public static final String FAIL_BEFORE_NEXT = FailPoints.declare("compute.actor.before-next");

  /**
   * Fails the actors of one job ({@link FailPoints.FailScope} of its job id) just before they pull
   * their next message (tests: a job whose own actors keep failing).
   */
  public static final String FAIL_JOB = FailPoints.declare("compute.actor.job-fault");

  /** Where an actor is in its life. */
  public enum Status {
    CREATED,
    RUNNING,
    /** Collected a barrier with a {@code Stop} mutation naming it, then exited. */
    STOPPED,
    /** The root returned end of stream. */
    ENDED,
    FAILED,
    /** The node interrupted it (drop or reset for recovery). */
    DROPPED
  }

  private final Doorbell inputBell;
  private final int actorId;
  private final int jobId;
  private final Executor root;
  private final ActorReporter reporter;
  private final AtomicReference<Status> status = new AtomicReference<>(Status.CREATED);
  private final Thread thread;

  /** Closed on the actor thread when it exits, whatever the reason (storage cursors, readers). */
  private final List<AutoCloseable> resources;

  /**
   * @param root the chain's root; wrapped in {@link CheckedExecutor} here if it is not already
   */
  public StreamActor(int actorId, Executor root, ActorReporter reporter) {
    this(actorId, root, reporter, List.of(), null);
  }

  /**
   * @param resources executors of the chain that hold resources, closed in order when the actor
   *     thread exits (stop, end, failure or drop)
   */
  public StreamActor(
      int actorId, Executor root, ActorReporter reporter, List<AutoCloseable> resources) {
    this(actorId, root, reporter, resources, null);
  }

  /**
   * @param inputBell the doorbell the chain's merges share (they poll: {@link
   *     ExecutorBuildContext#inputBell}); a null from the chain then means "no input now", and the
   *     actor waits on it for the next message instead of ending. Null for a chain whose only merge
   *     blocks or that has none (a null then ends the actor: finite test and benchmark chains).
   */
  public StreamActor(
      int actorId,
      Executor root,
      ActorReporter reporter,
      List<AutoCloseable> resources,
      Doorbell inputBell) {
    this(actorId, 0, root, reporter, resources, inputBell);
  }

  /**
   * @param jobId the streaming job the actor belongs to (0 when it belongs to none: tests, bench)
   */
  public StreamActor(
      int actorId,
      int jobId,
      Executor root,
      ActorReporter reporter,
      List<AutoCloseable> resources,
      Doorbell inputBell) {
    this.inputBell = inputBell;
    this.actorId = actorId;
    this.jobId = jobId;
    this.root = CheckedExecutor.wrap(root);
    this.reporter = reporter;
    this.resources = List.copyOf(resources);
    this.thread = Threads.named("actor-" + actorId, true).newThread(this::run);
  }

  public int actorId() {
    return actorId;
  }

  /** Where the actor's thread is now (diagnostics of a barrier that does not come through). */
  public StackTraceElement[] stackTrace() {
    return thread.getStackTrace();
  }

  public Status status() {
    return status.get();
  }

  /** Starts the actor thread. */
  public void start() {
    Checks.checkState(
        status.compareAndSet(Status.CREATED, Status.RUNNING),
        "actor %s: start in state %s",
        actorId,
        status.get());
    thread.start();
  }

  /**
   * Stops the actor without a barrier (drop or recovery): interrupts its thread and waits up to
   * {@code joinMs} for it to exit. No report follows. Returns true if the thread has exited.
   */
  public boolean drop(long joinMs) throws InterruptedException {
    Status s = status.get();
    if (s == Status.CREATED) {
      status.set(Status.DROPPED);
      return true;
    }
    if (s == Status.RUNNING && status.compareAndSet(Status.RUNNING, Status.DROPPED)) {
      thread.interrupt();
    }
    thread.join(joinMs);
    return !thread.isAlive();
  }

  private void run() {
    try {
      while (status.get() == Status.RUNNING) {
        FailPoints.hit(FAIL_BEFORE_NEXT);
        FailPoints.hit(FAIL_JOB, jobId);
        Message m = root.next();
        if (m == null) {
          if (inputBell != null) {
            inputBell.await(Doorbell.WAIT_MS); // every executor of the chain passed "nothing now"
            continue;
          }
          finish(Status.ENDED);
          return;
        }
        if (m instanceof Barrier b && onBarrier(b)) {
          return;
        }
      }
    } catch (RuntimeException | Error e) {
      if (status.compareAndSet(Status.RUNNING, Status.FAILED)) {
        reporter.actorFailed(actorId, e);
      }
      // else: dropped; the interrupt surfaced as an exception, which is expected
    } finally {
      closeResources();
    }
  }

  private void closeResources() {
    for (AutoCloseable r : resources) {
      try {
        r.close();
      } catch (Exception | Error e) {
        LOG.warn("actor {}: closing {} failed: {}", actorId, r, e.toString());
      }
    }
  }

  /** Reports {@code b}; returns true when it stopped this actor. */
  private boolean onBarrier(Barrier b) {
    if (status.get() != Status.RUNNING) {
      return true; // dropped meanwhile: report nothing
    }
    reporter.barrierCollected(actorId, b);
    if (b.stops(actorId)) {
      finish(Status.STOPPED);
      return true;
    }
    return false;
  }

  private void finish(Status terminal) {
    if (status.compareAndSet(Status.RUNNING, terminal)) {
      reporter.actorExited(actorId, terminal == Status.STOPPED);
    }
  }

  @Override
  public String toString() {
    return "StreamActor(" + actorId + ", " + status.get() + ")";
  }
}
