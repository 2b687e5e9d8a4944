package dev.tideway.barrier.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tideway.barrier.control.BarrierCompleted;
import dev.tideway.barrier.control.InjectBarrier;
import dev.tideway.barrier.control.NodeFailure;
import dev.tideway.barrier.control.SyncResult;
import dev.tideway.barrier.control.TableStatsDelta;
import dev.tideway.barrier.epoch.EpochPair;
import dev.tideway.barrier.message.Barrier;
import dev.tideway.barrier.message.BarrierKind;
import dev.tideway.barrier.progress.CreateMviewProgressReporter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LocalBarrierManagerTest {
  /** Records every side effect, in order. */
  static final class ScriptedEnv implements LocalBarrierEnvironment<String> {
    final List<String> sent = new ArrayList<>();
    final List<SyncRequest> syncs = new ArrayList<>();
    final List<BarrierCompleted<String>> completed = new ArrayList<>();
    final List<NodeFailure> failures = new ArrayList<>();

    @Override
    public void sendBarrier(int actorId, Barrier barrier) {
      sent.add(actorId + "@" + barrier.curr());
    }

    @Override
    public void sync(SyncRequest request) {
      syncs.add(request);
    }

    @Override
    public void completed(BarrierCompleted<String> c) {
      completed.add(c);
    }

    @Override
    public void failed(NodeFailure failure) {
      failures.add(failure);
    }
  }

  private final ScriptedEnv env = new ScriptedEnv();
  private final LocalBarrierManager<String> lbm = new LocalBarrierManager<>(1, env);

  private static InjectBarrier inject(long curr, long prev, BarrierKind kind) {
    return new InjectBarrier(
        1,
        0,
        Barrier.of(new EpochPair(curr, prev), kind),
        new int[] {10},
        new int[] {10, 11},
        new int[] {100});
  }

  @Test
  void checkpointIsSyncedThenCompletedWithItsProgress() {
    lbm.inject(inject(2, 1, BarrierKind.CHECKPOINT));
    assertThat(env.sent).containsExactly("10@2");
    CreateMviewProgressReporter r = lbm.registerProgressReporter(11);
    r.update(new EpochPair(2, 1), 1, 500);
    lbm.collect(10, new EpochPair(2, 1));
    assertThat(env.syncs).isEmpty();
    lbm.collect(11, new EpochPair(2, 1));
    assertThat(env.syncs).hasSize(1);
    assertThat(env.completed).isEmpty();
    lbm.onSyncCompleted(
        2, 0, new SyncResult<>(List.of("sst-1"), List.of(new TableStatsDelta(100, 5, 5, true))));
    BarrierCompleted<String> c = env.completed.get(0);
    assertThat(c.syncedSsts()).containsExactly("sst-1");
    assertThat(c.progress().describe())
        .containsExactly("11=ConsumingUpstream[consumedEpoch=1, consumedRows=500]");
  }

  @Test
  void completionsLeaveInEpochOrderEvenWhenALaterEpochIsReadyFirst() {
    lbm.inject(inject(2, 1, BarrierKind.CHECKPOINT));
    lbm.inject(inject(3, 2, BarrierKind.BARRIER));
    for (int a : new int[] {10, 11}) {
      lbm.collect(a, new EpochPair(2, 1));
      lbm.collect(a, new EpochPair(3, 2));
    }
    assertThat(env.completed).isEmpty();
    lbm.onSyncCompleted(2, 0, SyncResult.empty());
    assertThat(env.completed).extracting(c -> c.epoch().curr()).containsExactly(2L, 3L);
  }

  @Test
  void anActorStoppedByAnInjectedStopIsNeitherSentToNorAwaitedLater() {
    lbm.inject(
        new InjectBarrier(
            1,
            0,
            new Barrier(
                new EpochPair(2, 1),
                BarrierKind.CHECKPOINT,
                new dev.tideway.barrier.message.Mutation.Stop(java.util.Set.of(10, 11))),
            new int[] {10},
            new int[] {10, 11},
            new int[] {100}));
    assertThat(env.sent).as("the Stop itself reaches them").containsExactly("10@2");
    // meta's topology lags: the next barrier still names them
    lbm.inject(inject(3, 2, BarrierKind.BARRIER));
    assertThat(env.sent).as("not sent again").containsExactly("10@2");
    lbm.collect(10, new EpochPair(2, 1));
    lbm.collect(11, new EpochPair(2, 1));
    lbm.onSyncCompleted(2, 0, SyncResult.empty());
    assertThat(env.completed)
        .as("the later epoch has nothing to collect and completes behind the Stop")
        .extracting(c -> c.epoch().curr())
        .containsExactly(2L, 3L);
    assertThat(env.failures).isEmpty();
    assertThat(lbm.skippedStoppedActors()).isEqualTo(2);
  }

  @Test
  void pairedChecksCatchOutOfOrderAndUnissuedCollects() {
    lbm.inject(inject(2, 1, BarrierKind.BARRIER));
    lbm.inject(inject(3, 2, BarrierKind.BARRIER));
    assertThatThrownBy(() -> lbm.collect(10, new EpochPair(3, 2)))
        .hasMessageContaining(
            "node 1: actor 10 collected {curr=3, prev=2} before the earlier epoch");
    lbm.collect(10, new EpochPair(2, 1));
    assertThatThrownBy(() -> lbm.collect(10, new EpochPair(2, 1)))
        .hasMessageContaining("was not issued to it or was collected already");
    assertThatThrownBy(() -> lbm.inject(inject(5, 4, BarrierKind.BARRIER)))
        .hasMessageContaining("does not follow the last injected barrier (curr 3)");
  }

  @Test
  void progressForAnEpochNotInFlightIsABug() {
    CreateMviewProgressReporter r = lbm.registerProgressReporter(11);
    assertThatThrownBy(() -> r.update(new EpochPair(2, 1), 1, 5))
        .hasMessageContaining(
            "actor 11 reported progress for {curr=2, prev=1}, which is not in flight");
  }

  /** A recovery's INITIAL barrier in generation 1: epoch 7 over 1, to actors 10 and 11. */
  private static InjectBarrier initialOfGeneration1() {
    return new InjectBarrier(
        1,
        1,
        Barrier.of(new EpochPair(7, 1), BarrierKind.INITIAL),
        new int[] {10},
        new int[] {10, 11},
        new int[0]);
  }

  @Test
  void actorFailureFailsInFlightEpochsAndRecoveryStartsClean() {
    lbm.inject(inject(2, 1, BarrierKind.CHECKPOINT));
    lbm.inject(inject(3, 2, BarrierKind.BARRIER));
    lbm.actorFailed(11, "division by zero");
    assertThat(env.failures).hasSize(1);
    assertThat(env.failures.get(0).failedEpochs()).containsExactly(2L, 3L);
    assertThat(env.failures.get(0).reason()).isEqualTo("actor 11 failed: division by zero");
    lbm.collect(10, new EpochPair(2, 1)); // stragglers are ignored while failed
    lbm.reset(1);
    lbm.inject(initialOfGeneration1());
    lbm.onSyncCompleted(2, 0, SyncResult.empty()); // a sync from generation 0 is dropped
    lbm.collect(10, new EpochPair(7, 1));
    lbm.collect(11, new EpochPair(7, 1));
    assertThat(env.completed).extracting(c -> c.epoch().curr()).containsExactly(7L);
    assertThat(env.completed.get(0).generation()).isEqualTo(1);
  }

  @Test
  void aRetriedResetInTheSameGenerationIsTakenAndAnOlderOneRefused() {
    lbm.reset(1);
    lbm.inject(inject(2, 1, BarrierKind.CHECKPOINT));
    // another node failed its reset: meta retries the recovery in the same generation
    lbm.reset(1);
    lbm.inject(initialOfGeneration1());
    lbm.collect(10, new EpochPair(7, 1));
    lbm.collect(11, new EpochPair(7, 1));
    assertThat(env.completed).extracting(c -> c.epoch().curr()).containsExactly(7L);
    assertThatThrownBy(() -> lbm.reset(0)).hasMessageContaining("reset to generation 0, below 1");
  }

  @Test
  void theOldestEpochNamesTheActorsThatHaveNotCollectedIt() {
    assertThat(lbm.oldestUncollected()).isNull();
    lbm.inject(inject(2, 1, BarrierKind.CHECKPOINT));
    lbm.inject(inject(3, 2, BarrierKind.BARRIER));
    assertThat(lbm.oldestUncollected()).isEqualTo(Map.entry(2L, List.of(10, 11)));
    lbm.collect(10, new EpochPair(2, 1));
    assertThat(lbm.oldestUncollected()).isEqualTo(Map.entry(2L, List.of(11)));
    lbm.collect(11, new EpochPair(2, 1));
    assertThat(lbm.oldestUncollected())
        .as("collected, waiting for its sync")
        .isEqualTo(Map.entry(2L, List.of()));
  }
}
