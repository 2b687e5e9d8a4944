package dev.tideway.storage.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tideway.common.fault.FailPoints;
import dev.tideway.common.fault.InjectedFault;
import dev.tideway.storage.api.Epochs;
import dev.tideway.storage.api.LocalStateStore;
import dev.tideway.storage.api.StorageException;
import dev.tideway.storage.api.SyncResult;
import dev.tideway.storage.memtable.SharedBuffer;
import dev.tideway.storage.objectstore.InMemoryObjectStore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Write backpressure: a writer sealing an epoch waits while more syncs than allowed are unfinished,
 * is let go as soon as one finishes (durable or failed), and loses nothing.
 */
class SyncBacklogTest {
  @AfterEach
  void reset() {
    FailPoints.reset();
  }

  private static StorageEngine open(int maxPendingSyncs) {
    return StorageEngine.open(
        new InMemoryObjectStore(), FaultTest.options().withMaxPendingSyncs(maxPendingSyncs));
  }

  /**
   * Writes rows [from, to) in the writer's current epoch and seals it, moving on to {@code next}.
   */
  private static CompletableFuture<Void> writeAndSeal(
      LocalStateStore l, int from, int to, long next) {
    return CompletableFuture.runAsync(
        () -> {
          for (int i = from; i < to; i++) {
            l.insert(FaultTest.key(i), ("r" + i).getBytes());
          }
          l.sealCurrentEpoch(Epochs.of(next));
        });
  }

  /**
   * Writes rows [0, 10) in epoch 1, seals it and starts its sync, which {@code pause} holds before
   * its upload; returns that sync once it is held.
   */
  private static CompletableFuture<SyncResult> pausedFirstSync(
      StorageEngine s, LocalStateStore l, FailPoints.Pause pause) throws Exception {
    l.init(Epochs.of(1));
    FailPoints.enable(SharedBuffer.FP_SYNC_BEFORE_UPLOAD, pause);
    writeAndSeal(l, 0, 10, 2).get(5, TimeUnit.SECONDS);
    CompletableFuture<SyncResult> sync = s.sync(Epochs.of(1));
    assertThat(pause.reached().await(5, TimeUnit.SECONDS)).isTrue();
    return sync;
  }

  @Test
  void aSealWaitsForTheSyncQueueAndGoesOnWhenASyncFinishes() throws Exception {
    try (StorageEngine s = open(1)) {
      LocalStateStore l = s.newLocal(1);
      FailPoints.Pause pause = new FailPoints.Pause();
      CompletableFuture<SyncResult> sync1 = pausedFirstSync(s, l, pause);
      // one sync pending: sealing the next epoch does not wait
      writeAndSeal(l, 10, 20, 3).get(5, TimeUnit.SECONDS);
      CompletableFuture<SyncResult> sync2 = s.sync(Epochs.of(2));
      // two pending (sync 1 paused, sync 2 queued behind it): the third seal must wait
      CompletableFuture<Void> third = writeAndSeal(l, 20, 30, 4);
      Thread.sleep(300);
      assertThat(third).as("a seal with two syncs pending and a limit of one").isNotDone();
      assertThat(s.metrics().writeStallSeconds.get()).isZero();

      FailPoints.disable(SharedBuffer.FP_SYNC_BEFORE_UPLOAD);
      pause.release();
      third.get(5, TimeUnit.SECONDS);
      assertThat(s.metrics().writeStallSeconds.get()).isGreaterThan(0.2);

      List<SyncResult> results = new ArrayList<>(List.of(sync1.get(), sync2.get()));
      results.add(s.sync(Epochs.of(3)).get(5, TimeUnit.SECONDS));
      long epoch = 1;
      for (SyncResult r : results) {
        s.commitEpoch(Epochs.of(epoch++), r.ssts(), r.statsDelta());
      }
      assertThat(results.stream().mapToLong(SyncResult::rowCount).sum()).isEqualTo(30);
      for (int i = 0; i < 30; i++) {
        assertThat(s.get(FaultTest.key(i), Epochs.of(3))).isEqualTo(("r" + i).getBytes());
      }
    }
  }

  @Test
  void aFailedSyncAlsoLetsTheWriterGo() throws Exception {
    try (StorageEngine s = open(0)) {
      LocalStateStore l = s.newLocal(1);
      FailPoints.Pause pause = new FailPoints.Pause();
      CompletableFuture<SyncResult> sync1 = pausedFirstSync(s, l, pause);

      CompletableFuture<Void> second = writeAndSeal(l, 10, 20, 3);
      Thread.sleep(200);
      assertThat(second).as("a seal with one sync pending and a limit of zero").isNotDone();

      FailPoints.enable(SharedBuffer.FP_SYNC_AFTER_UPLOAD, new FailPoints.Fail());
      pause.release();
      second.get(5, TimeUnit.SECONDS);
      assertThatThrownBy(() -> sync1.get(5, TimeUnit.SECONDS))
          .hasCauseInstanceOf(InjectedFault.class);
    }
  }

  @Test
  void aWaitingWriterStopsWhenInterruptedOrWhenRecoveryClearsTheBuffer() throws Exception {
    try (StorageEngine s = open(0)) {
      LocalStateStore l = s.newLocal(1);
      FailPoints.Pause pause = new FailPoints.Pause();
      pausedFirstSync(s, l, pause);

      // an actor being dropped is interrupted: its seal must not wait for the held sync
      AtomicReference<Throwable> thrown = new AtomicReference<>();
      Thread writer =
          new Thread(
              () -> {
                try {
                  l.insert(FaultTest.key(10), "r10".getBytes());
                  l.sealCurrentEpoch(Epochs.of(3));
                } catch (Throwable t) {
                  thrown.set(t);
                }
              });
      writer.start();
      Thread.sleep(200);
      assertThat(writer.isAlive()).as("the seal waits for the held sync").isTrue();
      writer.interrupt();
      writer.join(5_000);
      assertThat(writer.isAlive()).isFalse();
      assertThat(thrown.get())
          .isInstanceOf(StorageException.class)
          .hasMessageContaining("interrupted");

      // a recovery clears the uncommitted writes: a writer still waiting belongs to an aborted
      // epoch and must stop instead of writing into the cleared buffer
      LocalStateStore other = s.newLocal(2);
      other.init(Epochs.of(1));
      CompletableFuture<Void> waiting =
          CompletableFuture.runAsync(() -> other.sealCurrentEpoch(Epochs.of(2)));
      Thread.sleep(200);
      assertThat(waiting).isNotDone();
      s.clearUncommitted();
      assertThatThrownBy(() -> waiting.get(5, TimeUnit.SECONDS))
          .hasCauseInstanceOf(StorageException.class)
          .hasMessageContaining("cleared");
      FailPoints.disable(SharedBuffer.FP_SYNC_BEFORE_UPLOAD);
      pause.release();
    }
  }

  @Test
  void aNegativeLimitNeverWaits() throws Exception {
    try (StorageEngine s = open(-1)) {
      LocalStateStore l = s.newLocal(1);
      l.init(Epochs.of(1));
      FailPoints.Pause pause = new FailPoints.Pause();
      FailPoints.enable(SharedBuffer.FP_SYNC_BEFORE_UPLOAD, pause);
      for (int e = 1; e <= 4; e++) {
        writeAndSeal(l, e * 10, e * 10 + 10, e + 1).get(5, TimeUnit.SECONDS);
        s.sync(Epochs.of(e));
      }
      assertThat(s.metrics().writeStallSeconds.get()).isZero();
      FailPoints.disable(SharedBuffer.FP_SYNC_BEFORE_UPLOAD);
      pause.release();
    }
  }
}
