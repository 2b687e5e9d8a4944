package dev.tideway.barrier.progress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tideway.barrier.epoch.Epoch;
import dev.tideway.barrier.epoch.EpochPair;
import dev.tideway.barrier.message.Mutation;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CreateMviewProgressTrackerTest {
  private static final long MS = 1L << Epoch.PHYSICAL_SHIFT_BITS;
  private final CreateMviewProgressTracker tracker =
      new CreateMviewProgressTracker(new ProgressConfig(5_000, 1_000));
  private long lastMs = 1_000;

  private static TableStatsLookup keys(int table, long keys) {
    return TableStatsLookup.of(List.of(new TableStatsView(table, keys, null)));
  }

  private static TableStatsLookup live(int table, long keys, long live) {
    return TableStatsLookup.of(List.of(new TableStatsView(table, keys, live)));
  }

  private static ProgressBatch batch(Object... actorAndState) {
    ProgressBatch b = new ProgressBatch(4);
    for (int i = 0; i < actorAndState.length; i += 2) {
      b.add((Integer) actorAndState[i], (BackfillState) actorAndState[i + 1]);
    }
    return b;
  }

  private ProgressUpdate commit(boolean checkpoint, TableStatsLookup stats, ProgressBatch... b) {
    long prevMs = lastMs;
    lastMs += 1_000;
    return tracker.onEpochCommitted(
        new EpochPair(lastMs * MS, prevMs * MS), checkpoint, List.of(b), stats);
  }

  private void registerArrangement(long jobId, int... actors) {
    List<BackfillActor> list =
        java.util.Arrays.stream(actors).mapToObj(BackfillActor::table).toList();
    tracker.register(new JobSpec(jobId, BackfillMode.ARRANGEMENT, list, Map.of(10, 1)), null, MS);
  }

  @Test
  void ratioIsConsumedOverKeyCountAndRendersLikeRisingWave() {
    registerArrangement(1, 1, 2);
    ProgressUpdate u = commit(true, keys(10, 1_000_000), batch(1, up(300_000), 2, up(261_200)));
    JobProgress p = u.jobs().get(0);
    assertThat(p.consumedRows()).isEqualTo(561_200);
    assertThat(p.upstreamKeyCount()).isEqualTo(1_000_000);
    assertThat(p.denominatorExact()).isFalse();
    assertThat(p.rawRatio()).isEqualTo(0.5612);
    assertThat(p.phase()).isEqualTo(JobPhase.SNAPSHOT);
    assertThat(p.render()).isEqualTo("56.12% (561200/1000000)");
  }

  @Test
  void liveRowsAreTheExactDenominatorAndScansMultiplyIt() {
    tracker.register(
        new JobSpec(1, BackfillMode.ARRANGEMENT, List.of(BackfillActor.table(1)), Map.of(10, 2)),
        null,
        MS);
    JobProgress p = commit(true, live(10, 150, 100), batch(1, up(50))).jobs().get(0);
    assertThat(p.upstreamKeyCount()).isEqualTo(300);
    assertThat(p.upstreamLiveRows()).hasValue(200);
    assertThat(p.denominatorExact()).isTrue();
    assertThat(p.rawRatio()).isEqualTo(0.25);
  }

  @Test
  void displayNeverDecreasesWhenTheDenominatorGrowsAndRawIsNotClamped() {
    registerArrangement(1, 1);
    assertThat(commit(true, keys(10, 100), batch(1, up(50))).jobs().get(0).displayRatio())
        .isEqualTo(0.5);
    JobProgress grown = commit(true, keys(10, 200), batch(1, up(60))).jobs().get(0);
    assertThat(grown.rawRatio()).isEqualTo(0.3);
    assertThat(grown.displayRatio()).isEqualTo(0.5);
    JobProgress over = commit(true, keys(10, 50), batch(1, up(70))).jobs().get(0);
    assertThat(over.rawRatio()).isEqualTo(1.4);
    assertThat(over.displayRatio()).isLessThan(1.0);
    assertThat(over.render()).isEqualTo("99.99% (70/50)");
  }

  @Test
  void jobIsDoneOnlyOnACheckpointCommitAndThenDisplaysExactlyOne() {
    registerArrangement(1, 1, 2);
    commit(true, keys(10, 100), batch(1, up(40), 2, up(40)));
    ProgressUpdate u = commit(false, keys(10, 100), batch(1, done(50), 2, done(50)));
    assertThat(u.jobs().get(0).phase()).isEqualTo(JobPhase.FINISHING);
    assertThat(u.jobs().get(0).displayRatio()).isLessThan(1.0);
    assertThat(u.checkpointNeeded()).isTrue();
    assertThat(u.finishedJobIds()).isEmpty();
    ProgressUpdate done = commit(true, keys(10, 100));
    assertThat(done.finishedJobIds()).containsExactly(1L);
    assertThat(done.jobs().get(0).displayRatio()).isEqualTo(1.0);
    assertThat(done.jobs().get(0).render()).isEqualTo("100%");
    assertThat(tracker.jobIds()).isEmpty();
  }

  @Test
  void snapshotBackfillFreezesItsDenominatorAndRendersItsPhases() {
    tracker.register(
        new JobSpec(
            3,
            BackfillMode.SNAPSHOT,
            List.of(BackfillActor.table(1), BackfillActor.table(2)),
            Map.of(10, 1)),
        keys(10, 1000),
        MS);
    JobProgress p = commit(true, keys(10, 5000), batch(1, up(100), 2, up(150))).jobs().get(0);
    assertThat(p.denominator()).isEqualTo(1000);
    assertThat(p.render()).isEqualTo("Snapshot [25.00% (250/1000)]");
    ProgressUpdate u =
        commit(
            true,
            keys(10, 9000),
            batch(
                1,
                done(500),
                2,
                done(500),
                1,
                new BackfillState.ConsumingLogStore(500, 2),
                2,
                new BackfillState.ConsumingLogStore(500, 1)));
    JobProgress ls = u.jobs().get(0);
    assertThat(ls.phase()).isEqualTo(JobPhase.LOG_STORE);
    assertThat(ls.logStorePendingBarriers()).isEqualTo(3);
    assertThat(ls.logStoreLagMs()).isEqualTo(1500);
    assertThat(ls.render()).isEqualTo("LogStore [actor: 0/2, avg lag 1.5s]");
    assertThat(u.finishedJobIds()).isEmpty();
    u =
        commit(
            true,
            keys(10, 9000),
            batch(
                1,
                new BackfillState.DoneConsumingLogStore(500),
                2,
                new BackfillState.DoneConsumingLogStore(500)));
    assertThat(u.finishedJobIds()).containsExactly(3L);
  }

  @Test
  void sourceBackfillHasNoDenominator() {
    tracker.register(
        new JobSpec(
            4,
            BackfillMode.ARRANGEMENT,
            List.of(BackfillActor.table(1), BackfillActor.source(2)),
            Map.of(10, 1)),
        null,
        MS);
    JobProgress p = commit(true, keys(10, 10), batch(1, up(5), 2, up(0))).jobs().get(0);
    assertThat(p.render())
        .isEqualTo("MView Backfill: 50.00% (5/10), Source Backfill: 0 rows consumed");
  }

  @Test
  void sourceBackfillWithOffsetTotalsShowsAPercentAndSaysWhetherOffsetsAreRows() {
    tracker.register(
        new JobSpec(
            5,
            BackfillMode.ARRANGEMENT,
            List.of(BackfillActor.source(1), BackfillActor.source(2)),
            Map.of()),
        null,
        MS);
    // one actor has not said its total yet: no denominator, only rows
    JobProgress first =
        commit(
                true,
                keys(10, 0),
                batch(1, new BackfillState.ConsumingUpstream(SourceTotal.pack(600, true), 150)))
            .jobs()
            .get(0);
    assertThat(first.render()).isEqualTo("150 rows consumed");
    assertThat(first.denominatorExact()).isFalse();
    JobProgress p =
        commit(
                true,
                keys(10, 0),
                batch(
                    1,
                    new BackfillState.ConsumingUpstream(SourceTotal.pack(600, true), 300),
                    2,
                    new BackfillState.ConsumingUpstream(SourceTotal.pack(400, true), 100)))
            .jobs()
            .get(0);
    assertThat(p.sourceOffsetTotal()).isEqualTo(1_000);
    assertThat(p.totalConsumed()).isEqualTo(400);
    assertThat(p.totalDenominator()).isEqualTo(1_000);
    assertThat(p.denominatorExact()).isTrue();
    assertThat(p.rawRatio()).isEqualTo(0.4);
    assertThat(p.render()).isEqualTo("40.00% (400/1000 offsets)");
    assertThat(p.etaSeconds()).isPresent();
    // transaction markers were read: the offsets no longer count rows exactly
    JobProgress markers =
        commit(
                true,
                keys(10, 0),
                batch(2, new BackfillState.ConsumingUpstream(SourceTotal.pack(400, false), 200)))
            .jobs()
            .get(0);
    assertThat(markers.denominatorExact()).isFalse();
    assertThat(markers.render()).isEqualTo("50.00% (500/1000 offsets)");
    // nothing read for longer than the stall threshold: the reason points at the source
    JobProgress stalled = null;
    for (int i = 0; i < 7; i++) {
      stalled = commit(true, keys(10, 0)).jobs().get(0);
    }
    assertThat(stalled.phase()).isEqualTo(JobPhase.STALLED);
    assertThat(stalled.stalledReason())
        .hasValueSatisfying(r -> assertThat(r).contains("Kafka cluster may be unreachable"));
  }

  @Test
  void aSourceBackfillActorWithNothingToReadStillLetsTheJobShowAPercent() {
    tracker.register(
        new JobSpec(
            6,
            BackfillMode.ARRANGEMENT,
            List.of(BackfillActor.source(1), BackfillActor.source(2)),
            Map.of()),
        null,
        MS);
    JobProgress p =
        commit(
                true,
                keys(10, 0),
                batch(
                    1,
                    new BackfillState.ConsumingUpstream(SourceTotal.pack(800, true), 200),
                    2,
                    new BackfillState.Done(0)))
            .jobs()
            .get(0);
    assertThat(p.render()).isEqualTo("25.00% (200/800 offsets)");
    // a hand-off point below the first end: the total shrinks to what is really read
    JobProgress shrunk =
        commit(
                true,
                keys(10, 0),
                batch(1, new BackfillState.ConsumingUpstream(SourceTotal.pack(400, true), 300)))
            .jobs()
            .get(0);
    assertThat(shrunk.sourceOffsetTotal()).isEqualTo(400);
    assertThat(shrunk.render()).isEqualTo("75.00% (300/400 offsets)");
  }

  @Test
  void rateAndEtaFollowEpochPhysicalTime() {
    registerArrangement(1, 1);
    commit(true, keys(10, 10_000), batch(1, up(1_000)));
    JobProgress p = commit(true, keys(10, 10_000), batch(1, up(2_000))).jobs().get(0);
    assertThat(p.rowsPerSecond()).isEqualTo(1_000.0);
    assertThat(p.etaSeconds()).hasValue(8);
  }

  @Test
  void pausedThrottledAndStalledPhasesSayWhy() {
    registerArrangement(1, 1);
    commit(true, keys(10, 100), batch(1, up(10)));
    tracker.onMutation(new Mutation.Throttle(Map.of(1, 5L)));
    assertThat(commit(true, keys(10, 100), batch(1, up(11))).jobs().get(0).phase())
        .isEqualTo(JobPhase.THROTTLED);
    tracker.onMutation(new Mutation.Pause());
    JobProgress paused = commit(true, keys(10, 100)).jobs().get(0);
    assertThat(paused.phase()).isEqualTo(JobPhase.PAUSED);
    assertThat(paused.stalledReason()).hasValue("paused: the cluster is paused");
    tracker.onMutation(new Mutation.Resume());
    tracker.onMutation(new Mutation.Throttle(Map.of(1, Mutation.Throttle.UNLIMITED)));
    JobProgress p = null;
    for (int i = 0; i < 6; i++) {
      p = commit(true, keys(10, 100)).jobs().get(0);
    }
    assertThat(p.phase()).isEqualTo(JobPhase.STALLED);
    assertThat(p.stalledReason().orElseThrow()).startsWith("no rows consumed for ");
    assertThat(commit(true, keys(10, 100), batch(1, up(12))).jobs().get(0).phase())
        .isEqualTo(JobPhase.SNAPSHOT);
  }

  @Test
  void aLogStoreThatDoesNotDrainIsStalledWithItsBacklog() {
    tracker.register(
        new JobSpec(5, BackfillMode.SNAPSHOT, List.of(BackfillActor.table(1)), Map.of(10, 1)),
        keys(10, 10),
        MS);
    commit(true, keys(10, 10), batch(1, done(10), 1, new BackfillState.ConsumingLogStore(10, 4)));
    JobProgress p = null;
    for (int i = 0; i < 6; i++) {
      p =
          commit(true, keys(10, 10), batch(1, new BackfillState.ConsumingLogStore(10, 4)))
              .jobs()
              .get(0);
    }
    assertThat(p.phase()).isEqualTo(JobPhase.STALLED);
    assertThat(p.stalledReason().orElseThrow())
        .startsWith("log store not draining for ")
        .endsWith(": 4 upstream barriers pending");
    assertThat(p.displayRatio()).isLessThan(1.0);
  }

  @Test
  void restoredTrackerContinuesWithoutDropAndHoldsLowerReReports() {
    registerArrangement(1, 1, 2);
    commit(true, keys(10, 1000), batch(1, up(300), 2, up(100)));
    TrackerSnapshot snap = tracker.snapshot(7);
    CreateMviewProgressTracker restored =
        CreateMviewProgressTracker.restore(snap, new ProgressConfig(5_000, 1_000));
    assertThat(restored.actorState(1)).hasValue(new BackfillState.ConsumingUpstream(1, 300));
    ProgressUpdate u =
        restored.onEpochCommitted(
            new EpochPair(9_000 * MS, 8_000 * MS),
            true,
            List.of(batch(1, up(250), 2, up(120))),
            keys(10, 1000));
    JobProgress p = u.jobs().get(0);
    assertThat(p.consumedRows()).isEqualTo(420);
    assertThat(p.displayRatio()).isEqualTo(0.42);
    assertThat(restored.regressions()).isEqualTo(1);
    assertThat(restored.snapshot(9).jobs().get(0).displayRatio()).isEqualTo(0.42);
  }

  @Test
  void reportsOfUnknownActorsAreIgnored() {
    registerArrangement(1, 1);
    commit(true, keys(10, 10), batch(99, up(5)));
    assertThat(tracker.unknownActorReports()).isEqualTo(1);
  }

  @Test
  void sinkDeliveriesRideInTheSameBatchWithoutTouchingJobs() {
    registerArrangement(1, 1);
    ProgressBatch b = batch(1, up(5));
    b.add(42, SinkDelivery.CODE, 7_000 * MS, 123);
    ProgressUpdate u = commit(true, keys(10, 10), b);
    assertThat(tracker.unknownActorReports()).isZero();
    assertThat(u.jobs().get(0).consumedRows()).isEqualTo(5);
    assertThatThrownBy(() -> new ProgressBatch(1).add(1, (byte) 9, 0, 0))
        .hasMessageContaining("progress code 9");
  }

  @Test
  void nodeReportsAndVnodesRideInTheSameBatchWithoutTouchingJobsEvenWhenTheNodeIdIsAnActorId() {
    registerArrangement(1, 1);
    ProgressBatch b = batch(1, up(5));
    // node 1's reports: the actor id field holds the node id, which here equals the actor's
    b.add(1, NodeReport.HEAP, 64L << 20, 512L << 20);
    b.add(1, NodeReport.COMPACTIONS, 3, 1);
    b.add(1, NodeReport.COMPACTION_BYTES, 4096, 2048);
    b.add(1, NodeReport.LAST_COMPACTION, 1_700_000_000_000L, 0);
    b.add(1, BackfillVnodes.CODE, 3, 128); // the actor's vnodes done: not rows either
    ProgressUpdate u = commit(true, keys(10, 10), b);
    assertThat(u.jobs().get(0).consumedRows()).isEqualTo(5);
    assertThat(b.describe()).contains("1=report#17(67108864, 536870912)");
    b.restampNodeReports(9);
    assertThat(b.actorId(0)).as("a backfill report keeps its actor").isEqualTo(1);
    assertThat(b.actorId(1)).isEqualTo(9);
    assertThat(b.actorId(4)).isEqualTo(9);
    assertThat(b.actorId(5)).as("the vnodes report is the actor's").isEqualTo(1);
  }

  private static BackfillState up(long rows) {
    return new BackfillState.ConsumingUpstream(1, rows);
  }

  private static BackfillState done(long rows) {
    return new BackfillState.Done(rows);
  }
}
