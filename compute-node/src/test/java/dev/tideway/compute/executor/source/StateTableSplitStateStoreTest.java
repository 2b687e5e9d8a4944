package dev.tideway.compute.executor.source;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.barrier.epoch.EpochPair;
import dev.tideway.barrier.executor.CheckedExecutor;
import dev.tideway.barrier.executor.Executor;
import dev.tideway.barrier.message.Barrier;
import dev.tideway.barrier.message.BarrierKind;
import dev.tideway.barrier.message.Message;
import dev.tideway.barrier.message.Mutation;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.time.ManualClock;
import dev.tideway.common.time.RateLimiter;
import dev.tideway.compute.testing.ScriptedBarrierInbox;
import dev.tideway.storage.api.Epochs;
import dev.tideway.storage.api.StateStores;
import dev.tideway.storage.api.Storage;
import dev.tideway.storage.api.StorageOptions;
import dev.tideway.storage.api.SyncResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class StateTableSplitStateStoreTest {
  static final int SOURCE_STATE_TABLE = 40;

  /** Runs the source; commits each closed epoch up to {@code commitUpTo}; returns ids emitted. */
  static List<Long> run(Storage store, ScriptedBarrierInbox inbox, long commitUpTo)
      throws Exception {
    Executor src =
        CheckedExecutor.wrap(
            new SourceExecutor(
                SourceExecutorTest.INFO,
                DatagenSplitReader.allSplits(SourceExecutorTest.SCHEMA, SourceExecutorTest.OPTIONS),
                inbox,
                new StateTableSplitStateStore(store, SOURCE_STATE_TABLE),
                new ManualClock(0),
                new SourceExecutor.Options(5, RateLimiter.UNLIMITED)));
    List<Long> ids = new ArrayList<>();
    for (Message m = src.next(); m != null; m = src.next()) {
      if (m instanceof Message.Chunk c) {
        for (StreamChunk.OpRow r : c.chunk().visibleRows()) {
          ids.add((Long) r.row().get(0));
        }
      } else if (m instanceof Barrier b
          && b.kind() != BarrierKind.INITIAL
          && b.prev() <= commitUpTo) {
        SyncResult r = store.sync(b.prev()).get();
        store.commitEpoch(b.prev(), r.ssts(), r.statsDelta());
      }
    }
    return ids;
  }

  @Test
  void anActorAddedToARunningGraphStartsOnACheckpointBarrierAndCommitsItsOffsets()
      throws Exception {
    try (Storage store = StateStores.open("memory://", StorageOptions.defaults())) {
      // a job created while others run: its source's first barrier is the checkpoint barrier that
      // carries the Add (epoch 1 -> 2), not an INITIAL one; it opens epoch 2 and closes nothing
      Mutation.Add add =
          new Mutation.Add(
              Set.of(SourceExecutorTest.ACTOR),
              Map.of(),
              Map.of(SourceExecutorTest.ACTOR, List.of("datagen-0-of-2", "datagen-1-of-2")),
              false);
      ScriptedBarrierInbox inbox =
          new ScriptedBarrierInbox()
              .then(
                  0,
                  new Barrier(
                      new EpochPair(Epochs.of(2), Epochs.of(1)), BarrierKind.CHECKPOINT, add))
              .then(
                  2,
                  new Barrier(
                      new EpochPair(Epochs.of(3), Epochs.of(2)), BarrierKind.CHECKPOINT, null))
              .thenStop(0, Epochs.of(4), SourceExecutorTest.ACTOR);
      List<Long> ids = run(store, inbox, Epochs.of(3));
      assertThat(ids).hasSize(10);
      StateTableSplitStateStore offsets = new StateTableSplitStateStore(store, SOURCE_STATE_TABLE);
      offsets.init(Epochs.of(5));
      assertThat(offsets.restore("datagen-0-of-2")).hasValue(5);
      assertThat(offsets.restore("datagen-1-of-2")).hasValue(5);
    }
  }

  @Test
  void offsetsCommittedWithTheirEpochSurviveRecoveryAndUncommittedOnesDoNot() throws Exception {
    try (Storage store = StateStores.open("memory://", StorageOptions.defaults())) {
      ScriptedBarrierInbox first =
          new ScriptedBarrierInbox()
              .then(0, Epochs.of(1))
              .then(2, Epochs.of(2))
              .then(2, Epochs.of(3))
              .then(4, Epochs.of(4))
              .thenStop(0, Epochs.of(5), SourceExecutorTest.ACTOR);
      List<Long> run1 = run(store, first, Epochs.of(2));
      assertThat(run1).hasSize(40);
      store.clearUncommitted(); // the node failed while epochs 3 and 4 were uncommitted
      ScriptedBarrierInbox second =
          new ScriptedBarrierInbox()
              .recoverFrom(Epochs.of(2), Epochs.of(6))
              .thenStop(8, Epochs.of(7), SourceExecutorTest.ACTOR);
      List<Long> run2 = run(store, second, Epochs.of(6));
      // epochs 1 and 2 emitted 4 chunks of 5 rows: ids 1..20; recovery resumes at 21
      List<Long> all = new ArrayList<>(run1.subList(0, 20));
      all.addAll(run2);
      assertThat(all.stream().sorted().toList())
          .isEqualTo(java.util.stream.LongStream.rangeClosed(1, 60).boxed().toList());
    }
  }
}
