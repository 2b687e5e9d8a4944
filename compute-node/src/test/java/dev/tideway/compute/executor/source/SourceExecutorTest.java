package dev.tideway.compute.executor.source;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.barrier.executor.ExecutorInfo;
import dev.tideway.barrier.message.Barrier;
import dev.tideway.barrier.message.Message;
import dev.tideway.barrier.message.Mutation;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.time.ManualClock;
import dev.tideway.common.time.RateLimiter;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Field;
import dev.tideway.common.types.Schema;
import dev.tideway.compute.testing.Drain;
import dev.tideway.compute.testing.FakeSplitStateStore;
import dev.tideway.compute.testing.ScriptedBarrierInbox;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SourceExecutorTest {
  static final int ACTOR = 3;
  static final ExecutorInfo INFO = new ExecutorInfo(ACTOR, 1, "Source");
  static final Schema SCHEMA =
      Schema.of(Field.of("id", DataType.BIGINT), Field.of("v", DataType.VARCHAR));
  static final Map<String, String> OPTIONS =
      Map.of(
          "fields.id.kind", "sequence",
          "fields.id.start", "1",
          "fields.id.end", "1000",
          "fields.v.length", "4",
          "datagen.split.num", "2");

  static SourceExecutor source(ScriptedBarrierInbox inbox, SplitStateStore store, int chunkSize) {
    return new SourceExecutor(
        INFO,
        DatagenSplitReader.allSplits(SCHEMA, OPTIONS),
        inbox,
        store,
        new ManualClock(0),
        new SourceExecutor.Options(chunkSize, RateLimiter.UNLIMITED));
  }

  /** The ids emitted in each epoch (rows after barrier opening e belong to e), in order. */
  static Map<Long, List<Long>> idsByEpoch(List<Message> messages) {
    Map<Long, List<Long>> out = new java.util.LinkedHashMap<>();
    long epoch = -1;
    for (Message m : messages) {
      if (m instanceof Barrier b) {
        epoch = b.curr();
        out.put(epoch, new ArrayList<>());
      } else if (m instanceof Message.Chunk c) {
        for (StreamChunk.OpRow r : c.chunk().visibleRows()) {
          out.get(epoch).add((Long) r.row().get(0));
        }
      }
    }
    return out;
  }

  @Test
  void recoveryFromTheLastCommittedEpochNeitherLosesNorRepeatsRows() {
    FakeSplitStateStore store = new FakeSplitStateStore();
    ScriptedBarrierInbox first =
        new ScriptedBarrierInbox()
            .then(0, 1)
            .then(3, 2)
            .then(2, 3)
            .then(4, 4)
            .thenStop(3, 5, ACTOR);
    Map<Long, List<Long>> run1 = idsByEpoch(Drain.all(source(first, store, 7)));
    // epochs 1..3 commit; the node dies while epoch 4 is in flight
    store.commit(3);
    store.crash();
    ScriptedBarrierInbox second =
        new ScriptedBarrierInbox().recoverFrom(3, 6).thenStop(7, 7, ACTOR);
    Map<Long, List<Long>> run2 = idsByEpoch(Drain.all(source(second, store, 7)));

    List<Long> committed = new ArrayList<>();
    for (long e = 1; e <= 3; e++) {
      committed.addAll(run1.get(e));
    }
    List<Long> lost = run1.get(4L);
    List<Long> replayed = run2.get(6L);
    assertThat(lost).isNotEmpty();
    // the uncommitted epoch's rows come again (splits may interleave differently) ...
    assertThat(replayed).containsAll(lost);
    // ... and together with the committed rows, each split's sequence is gapless and unrepeated
    List<Long> all = new ArrayList<>(committed);
    all.addAll(replayed);
    assertThat(all).doesNotHaveDuplicates();
    for (long parity = 0; parity < 2; parity++) {
      long p = parity;
      List<Long> split = all.stream().filter(i -> i % 2 != p).sorted().toList();
      for (int i = 0; i < split.size(); i++) {
        assertThat(split.get(i)).isEqualTo(1 + p + 2L * i);
      }
    }
  }

  @Test
  void aBoundedSourceEndsItsRowsAndKeepsForwardingBarriers() {
    FakeSplitStateStore store = new FakeSplitStateStore();
    ScriptedBarrierInbox inbox =
        new ScriptedBarrierInbox().then(0, 1).then(1000, 2).thenStop(0, 3, ACTOR);
    Map<Long, List<Long>> ids = idsByEpoch(Drain.all(source(inbox, store, 100)));
    assertThat(ids.get(1L)).hasSize(1000).doesNotHaveDuplicates();
    assertThat(ids.get(2L)).isEmpty();
    assertThat(store.restore("datagen-0-of-2")).isEmpty(); // nothing committed yet
    store.commit(2);
    assertThat(store.restore("datagen-0-of-2")).hasValue(500);
    assertThat(store.restore("datagen-1-of-2")).hasValue(500);
  }

  @Test
  void pauseStopsReadingUntilResume() {
    ScriptedBarrierInbox inbox =
        new ScriptedBarrierInbox()
            .then(0, 1)
            .then(2, 2, new Mutation.Pause())
            .then(5, 3, new Mutation.Resume())
            .thenStop(2, 4, ACTOR);
    Map<Long, List<Long>> ids = idsByEpoch(Drain.all(source(inbox, new FakeSplitStateStore(), 5)));
    assertThat(ids.get(1L)).hasSize(10);
    assertThat(ids.get(2L)).isEmpty();
    assertThat(ids.get(3L)).hasSize(10);
  }

  @Test
  void anAddMutationPicksTheActorsSplits() {
    ScriptedBarrierInbox inbox =
        new ScriptedBarrierInbox()
            .then(
                0,
                1,
                new Mutation.Add(
                    Set.of(ACTOR), Map.of(), Map.of(ACTOR, List.of("datagen-1-of-2")), false))
            .thenStop(3, 2, ACTOR);
    Map<Long, List<Long>> ids = idsByEpoch(Drain.all(source(inbox, new FakeSplitStateStore(), 2)));
    assertThat(ids.get(1L)).containsExactly(2L, 4L, 6L, 8L, 10L, 12L);
  }

  @Test
  void aThrottleMutationLimitsRowsPerSecondOfClockTime() {
    ManualClock clock = new ManualClock(0);
    ScriptedBarrierInbox inbox =
        new ScriptedBarrierInbox()
            .then(0, 1, new Mutation.Throttle(Map.of(ACTOR, 100L)))
            .then(50, 2)
            .thenStop(0, 3, ACTOR);
    SourceExecutor src =
        new SourceExecutor(
            INFO,
            DatagenSplitReader.allSplits(SCHEMA, OPTIONS),
            inbox,
            new FakeSplitStateStore(),
            clock,
            new SourceExecutor.Options(1000, RateLimiter.UNLIMITED));
    // with the clock standing still, only the bucket's initial tenth of a second passes
    assertThat(idsByEpoch(Drain.all(src)).get(1L)).hasSize(10);
  }
}
