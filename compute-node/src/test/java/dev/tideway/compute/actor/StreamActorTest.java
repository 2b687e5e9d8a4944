package dev.tideway.compute.actor;

import static dev.tideway.compute.actor.TestBarriers.barrier;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.barrier.epoch.EpochPair;
import dev.tideway.barrier.executor.ExecutorInfo;
import dev.tideway.barrier.message.Barrier;
import dev.tideway.barrier.message.BarrierKind;
import dev.tideway.compute.actor.RecordingReporter.Collected;
import dev.tideway.compute.actor.RecordingReporter.Exited;
import dev.tideway.compute.actor.RecordingReporter.Failed;
import java.util.List;
import org.junit.jupiter.api.Test;

class StreamActorTest {
  private final RecordingReporter reporter = new RecordingReporter();
  private final BarrierInbox inbox = new BarrierInbox(7);
  private final TestSource source =
      new TestSource(new ExecutorInfo(7, 1, "TestSource"), inbox, 3, 4, 0, 1);

  @Test
  void reportsEveryBarrierInOrderAndStopsCleanlyOnStopMutation() throws Exception {
    StreamActor actor = new StreamActor(7, source, reporter);
    actor.start();
    inbox.push(barrier(1));
    inbox.push(barrier(2));
    inbox.push(TestBarriers.stop(3, 7));

    assertThat(reporter.take()).isEqualTo(new Collected(7, barrier(1)));
    assertThat(reporter.take()).isEqualTo(new Collected(7, barrier(2)));
    assertThat(reporter.take()).isEqualTo(new Collected(7, TestBarriers.stop(3, 7)));
    assertThat(reporter.take()).isEqualTo(new Exited(7, true));
    assertThat(reporter.poll(100)).isNull();
    assertThat(actor.status()).isEqualTo(StreamActor.Status.STOPPED);
    assertThat(source.emittedRows())
        .as("3 chunks of 4 rows after each of 2 barriers")
        .isEqualTo(24);
  }

  @Test
  void aStopOfAnotherActorDoesNotStopThisOne() throws Exception {
    StreamActor actor = new StreamActor(7, source, reporter);
    actor.start();
    inbox.push(barrier(1));
    inbox.push(TestBarriers.stop(2, 8));
    inbox.push(barrier(3));
    assertThat(reporter.take()).isInstanceOf(Collected.class);
    assertThat(reporter.take()).isInstanceOf(Collected.class);
    assertThat(reporter.take()).isEqualTo(new Collected(7, barrier(3)));
    assertThat(actor.status()).isEqualTo(StreamActor.Status.RUNNING);
    assertThat(actor.drop(5_000)).isTrue();
  }

  @Test
  void aCrashIsReportedOnceWithTheActorId() throws Exception {
    StreamActor actor = new StreamActor(7, source, reporter);
    actor.start();
    inbox.push(barrier(1));
    assertThat(reporter.take()).isInstanceOf(Collected.class);
    source.kill();
    RecordingReporter.Event e = reporter.take();
    assertThat(e).isInstanceOf(Failed.class);
    assertThat(((Failed) e).actorId()).isEqualTo(7);
    assertThat(((Failed) e).cause()).hasMessageContaining("actor 7");
    inbox.push(barrier(2));
    assertThat(reporter.poll(200)).as("nothing after the failure").isNull();
    assertThat(actor.status()).isEqualTo(StreamActor.Status.FAILED);
  }

  @Test
  void theCheckingWrapperTurnsAnEpochGapIntoAFailure() throws Exception {
    Barrier gap =
        Barrier.of(
            new EpochPair(TestBarriers.epoch(9), TestBarriers.epoch(8)), BarrierKind.CHECKPOINT);
    ListExecutor root =
        new ListExecutor(
            new ExecutorInfo(8, 1, "List"), TestSource.SCHEMA, List.of(barrier(1), gap));
    new StreamActor(8, root, reporter).start();
    assertThat(reporter.take()).isEqualTo(new Collected(8, barrier(1)));
    RecordingReporter.Event e = reporter.take();
    assertThat(e).isInstanceOf(Failed.class);
    assertThat(((Failed) e).actorId()).isEqualTo(8);
    assertThat(((Failed) e).cause()).hasMessageContaining("actor 8").hasMessageContaining("prev");
  }

  @Test
  void endOfStreamIsReportedAsAnExitWithoutStop() throws Exception {
    ListExecutor root =
        new ListExecutor(new ExecutorInfo(9, 1, "List"), TestSource.SCHEMA, List.of(barrier(1)));
    new StreamActor(9, root, reporter).start();
    assertThat(reporter.take()).isEqualTo(new Collected(9, barrier(1)));
    assertThat(reporter.take()).isEqualTo(new Exited(9, false));
  }

  @Test
  void aDroppedActorReportsNothingAndItsThreadExits() throws Exception {
    StreamActor actor = new StreamActor(7, source, reporter);
    actor.start();
    inbox.push(barrier(1));
    assertThat(reporter.take()).isInstanceOf(Collected.class);
    assertThat(actor.drop(5_000)).isTrue();
    assertThat(actor.status()).isEqualTo(StreamActor.Status.DROPPED);
    assertThat(reporter.poll(200)).isNull();
  }

  /** A resource of the chain (a backfill's storage cursor) is closed however the actor ends. */
  @Test
  void theChainsResourcesAreClosedOnStopFailureAndDrop() throws Exception {
    java.util.concurrent.atomic.AtomicInteger closed =
        new java.util.concurrent.atomic.AtomicInteger();
    AutoCloseable resource = closed::incrementAndGet;

    StreamActor stopped = new StreamActor(7, source, reporter, List.of(resource));
    stopped.start();
    inbox.push(TestBarriers.stop(1, 7));
    assertThat(reporter.take()).isInstanceOf(Collected.class);
    assertThat(reporter.take()).isEqualTo(new Exited(7, true));

    BarrierInbox inbox2 = new BarrierInbox(7);
    TestSource failing = new TestSource(new ExecutorInfo(7, 1, "TestSource"), inbox2, 3, 4, 0, 1);
    StreamActor failed = new StreamActor(7, failing, reporter, List.of(resource));
    failed.start();
    inbox2.push(barrier(1));
    assertThat(reporter.take()).isInstanceOf(Collected.class);
    failing.kill();
    assertThat(reporter.take()).isInstanceOf(Failed.class);

    BarrierInbox inbox3 = new BarrierInbox(7);
    TestSource third = new TestSource(new ExecutorInfo(7, 1, "TestSource"), inbox3, 3, 4, 0, 1);
    StreamActor dropped = new StreamActor(7, third, reporter, List.of(resource));
    dropped.start();
    inbox3.push(barrier(1));
    assertThat(reporter.take()).isInstanceOf(Collected.class);
    assertThat(dropped.drop(5_000)).isTrue();
    for (int i = 0; i < 500 && closed.get() < 3; i++) {
      Thread.sleep(10); // the stopped and failed threads close after their last report
    }
    assertThat(closed.get()).as("closed once per actor: stopped, failed, dropped").isEqualTo(3);
  }
}
