package dev.tideway.barrier.global;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tideway.barrier.control.BarrierCompleted;
import dev.tideway.barrier.control.NodeFailure;
import dev.tideway.barrier.control.TableStatsDelta;
import dev.tideway.barrier.epoch.Epoch;
import dev.tideway.barrier.message.Barrier;
import dev.tideway.barrier.message.BarrierKind;
import dev.tideway.barrier.message.Mutation;
import dev.tideway.barrier.progress.BackfillState;
import dev.tideway.barrier.progress.ProgressBatch;
import dev.tideway.common.time.ManualClock;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class GlobalBarrierCoreTest {
  private final ManualClock clock = new ManualClock(Epoch.BASE_UNIX_MS + 1_000_000);
  private final List<BarrierDecision<String>> out = new ArrayList<>();
  private final Topology twoNodes =
      new Topology(
          List.of(
              new NodeActors(1, new int[] {10}, new int[] {10, 11}, new int[] {100}),
              new NodeActors(2, new int[] {20}, new int[] {20}, new int[] {100})));

  private GlobalBarrierCore<String> core(int frequency, int maxInflight) {
    GlobalBarrierCore<String> c =
        new GlobalBarrierCore<>(
            new BarrierConfig(100, frequency, maxInflight, 5_000), clock, 0, out::add);
    c.recovered(twoNodes);
    return c;
  }

  private Barrier lastInjected() {
    for (int i = out.size() - 1; i >= 0; i--) {
      if (out.get(i) instanceof BarrierDecision.Inject<String> inj) {
        return inj.barrier();
      }
    }
    throw new AssertionError("nothing injected");
  }

  private BarrierCompleted<String> done(int node, Barrier b, long gen, ProgressBatch p) {
    return new BarrierCompleted<>(
        node,
        gen,
        b.epoch(),
        b.kind(),
        b.isCheckpoint() ? List.of("sst-" + node) : List.of(),
        b.isCheckpoint() ? List.of(new TableStatsDelta(100, 3, 3, true)) : List.of(),
        p);
  }

  private void completeOnAllNodes(GlobalBarrierCore<String> c, Barrier b) {
    c.onCompleted(done(1, b, c.generation(), new ProgressBatch(1)));
    c.onCompleted(done(2, b, c.generation(), new ProgressBatch(1)));
  }

  private Barrier tickInject(GlobalBarrierCore<String> c) {
    clock.advanceMillis(100);
    c.tick();
    return lastInjected();
  }

  @Test
  void startsWithAnInitialBarrierOnTheCommittedEpoch() {
    core(1, 10);
    Barrier b = lastInjected();
    assertThat(b.kind()).isEqualTo(BarrierKind.INITIAL);
    assertThat(b.prev()).isZero();
    BarrierDecision.Inject<String> inj = (BarrierDecision.Inject<String>) out.get(0);
    assertThat(inj.requests()).extracting(r -> r.nodeId()).containsExactly(1, 2);
  }

  @Test
  void everyNthBarrierIsACheckpointAndCommitsEverythingSinceTheLastOne() {
    GlobalBarrierCore<String> c = core(3, 10);
    completeOnAllNodes(c, lastInjected());
    List<Barrier> bs = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      bs.add(tickInject(c));
    }
    assertThat(bs)
        .extracting(Barrier::kind)
        .containsExactly(BarrierKind.BARRIER, BarrierKind.BARRIER, BarrierKind.CHECKPOINT);
    for (Barrier b : bs) {
      ProgressBatch p = new ProgressBatch(1);
      p.add(11, new BackfillState.ConsumingUpstream(1, b.curr()));
      c.onCompleted(done(1, b, 0, p));
      c.onCompleted(done(2, b, 0, new ProgressBatch(1)));
    }
    BarrierDecision.CommitEpoch<String> commit =
        (BarrierDecision.CommitEpoch<String>) out.get(out.size() - 1);
    assertThat(commit.committedEpochs())
        .containsExactly(bs.get(0).prev(), bs.get(1).prev(), bs.get(2).prev());
    assertThat(commit.progress()).hasSize(3);
    assertThat(commit.ssts()).containsExactly("sst-1", "sst-2");
    assertThat(commit.statsDeltas()).containsExactly(new TableStatsDelta(100, 6, 6, true));
    assertThat(c.committedEpoch()).isEqualTo(bs.get(2).prev());
  }

  @Test
  void completesStrictlyInEpochOrder() {
    GlobalBarrierCore<String> c = core(1, 10);
    Barrier init = lastInjected();
    Barrier b1 = tickInject(c);
    completeOnAllNodes(c, b1);
    assertThat(out).noneMatch(d -> d instanceof BarrierDecision.CommitEpoch);
    completeOnAllNodes(c, init);
    assertThat(out.subList(out.size() - 2, out.size()))
        .satisfiesExactly(
            d -> assertThat(d).isInstanceOf(BarrierDecision.Collected.class),
            d ->
                assertThat(((BarrierDecision.CommitEpoch<String>) d).epoch())
                    .isEqualTo(b1.epoch()));
  }

  @Test
  void capsInflightBarriers() {
    GlobalBarrierCore<String> c = core(1, 2);
    tickInject(c);
    int before = out.size();
    clock.advanceMillis(1_000);
    c.tick();
    assertThat(out).hasSize(before);
    assertThat(c.inflightCount()).isEqualTo(2);
  }

  @Test
  void aNewJobAfterEveryJobWasDroppedStillStarts() {
    GlobalBarrierCore<String> c = core(1, 10);
    completeOnAllNodes(c, lastInjected());
    c.updateTopology(new Topology(List.of()));
    int before = out.size();
    clock.advanceMillis(1_000);
    c.tick();
    assertThat(out).as("no actors, no barriers").hasSize(before);
    c.schedule(
        new Command(
            7,
            new Mutation.Add(Set.of(10, 11, 20), java.util.Map.of(), java.util.Map.of(), false),
            twoNodes));
    c.tick();
    Barrier add = lastInjected();
    assertThat(add.mutationOpt()).get().isInstanceOf(Mutation.Add.class);
    completeOnAllNodes(c, add);
    assertThat(c.committedEpoch()).isEqualTo(add.prev());
  }

  private static int[] collectOf(BarrierDecision.Inject<String> inj, int node) {
    return inj.requests().stream()
        .filter(r -> r.nodeId() == node)
        .findFirst()
        .map(r -> r.actorsToCollect())
        .orElse(new int[0]);
  }

  private BarrierDecision.Inject<String> lastInject() {
    for (int i = out.size() - 1; i >= 0; i--) {
      if (out.get(i) instanceof BarrierDecision.Inject<String> inj) {
        return inj;
      }
    }
    throw new AssertionError("nothing injected");
  }

  @Test
  void theStopBarrierIsTheLastOneItsActorsGetEvenWhileItIsInFlight() {
    GlobalBarrierCore<String> c = core(1, 10);
    completeOnAllNodes(c, lastInjected());
    c.schedule(new Command(42, new Mutation.Stop(Set.of(20)), null));
    c.tick();
    assertThat(collectOf(lastInject(), 2)).as("the Stop reaches its actors").containsExactly(20);
    Barrier next = tickInject(c); // the Stop has not completed yet
    assertThat(next.mutationOpt()).isEmpty();
    assertThat(lastInject().requests())
        .as("node 2 has nothing left to collect once actor 20 stopped")
        .extracting(r -> r.nodeId())
        .containsExactly(1);
  }

  @Test
  void aCommandWhoseTopologyPredatesAStopDoesNotBringItsActorsBack() {
    GlobalBarrierCore<String> c = core(1, 10);
    completeOnAllNodes(c, lastInjected());
    c.schedule(new Command(42, new Mutation.Stop(Set.of(11, 20)), null));
    c.tick();
    // a job built meanwhile: its Add carries the topology as it was before the Stop, plus its own
    Topology stale =
        new Topology(
            List.of(
                new NodeActors(1, new int[] {10, 30}, new int[] {10, 11, 30}, new int[] {100}),
                new NodeActors(2, new int[] {20}, new int[] {20}, new int[] {100})));
    c.schedule(
        new Command(
            43,
            new Mutation.Add(Set.of(30), java.util.Map.of(), java.util.Map.of(), false),
            stale));
    clock.advanceMillis(100);
    c.tick();
    BarrierDecision.Inject<String> add = lastInject();
    assertThat(add.barrier().mutationOpt()).get().isInstanceOf(Mutation.Add.class);
    assertThat(add.requests()).extracting(r -> r.nodeId()).containsExactly(1);
    assertThat(collectOf(add, 1)).containsExactly(10, 30);
    c.updateTopology(stale);
    assertThat(collectOf(inject(c), 1))
        .as("a later topology update does not bring them back either")
        .containsExactly(10, 30);
  }

  private BarrierDecision.Inject<String> inject(GlobalBarrierCore<String> c) {
    tickInject(c);
    return lastInject();
  }

  @Test
  void aRecoveryFailsQueuedCommandsAndForgetsStoppedActors() {
    GlobalBarrierCore<String> c = core(1, 1);
    tickInject(c); // one in flight: the next commands wait
    c.schedule(new Command(42, new Mutation.Stop(Set.of(11)), null));
    c.schedule(new Command(43, new Mutation.Pause(), twoNodes));
    c.onNodeFailure(new NodeFailure(1, c.generation(), 10, "actor 10 failed", List.of()));
    assertThat(out)
        .anySatisfy(
            d ->
                assertThat(d)
                    .isInstanceOfSatisfying(
                        BarrierDecision.StartRecovery.class,
                        r -> assertThat(r.failedCommandIds()).contains(42L, 43L)));
    c.recovered(twoNodes);
    assertThat(collectOf(lastInject(), 1)).containsExactly(10, 11);
  }

  @Test
  void commandRidesTheNextTickAsACheckpoint() {
    GlobalBarrierCore<String> c = core(5, 10);
    completeOnAllNodes(c, lastInjected());
    c.schedule(new Command(42, new Mutation.Stop(Set.of(11)), null));
    c.tick();
    Barrier b = lastInjected();
    assertThat(b.kind()).isEqualTo(BarrierKind.CHECKPOINT);
    assertThat(b.stops(11)).isTrue();
    completeOnAllNodes(c, b);
    BarrierDecision.CommitEpoch<String> commit =
        (BarrierDecision.CommitEpoch<String>) out.get(out.size() - 1);
    assertThat(commit.commandIds()).containsExactly(42L);
    assertThat(commit.mutations()).containsExactly(new Mutation.Stop(Set.of(11)));
  }

  @Test
  void forceCheckpointAndFinishedBackfillMakeTheNextBarrierACheckpoint() {
    GlobalBarrierCore<String> c = core(10, 10);
    completeOnAllNodes(c, lastInjected());
    c.requestForceCheckpoint();
    Barrier forced = tickInject(c);
    assertThat(forced.kind()).isEqualTo(BarrierKind.CHECKPOINT);
    completeOnAllNodes(c, forced);
    Barrier plain = tickInject(c);
    assertThat(plain.kind()).isEqualTo(BarrierKind.BARRIER);
    ProgressBatch p = new ProgressBatch(1);
    p.add(11, new BackfillState.Done(9));
    c.onCompleted(done(1, plain, 0, p));
    c.onCompleted(done(2, plain, 0, new ProgressBatch(1)));
    assertThat(tickInject(c).kind()).isEqualTo(BarrierKind.CHECKPOINT);
  }

  @Test
  void nodeFailureStartsRecoveryAndStaleAnswersAreIgnored() {
    GlobalBarrierCore<String> c = core(1, 10);
    Barrier init = lastInjected();
    completeOnAllNodes(c, init);
    Barrier b1 = tickInject(c);
    c.onCompleted(done(1, b1, 0, new ProgressBatch(1)));
    c.onNodeFailure(new NodeFailure(2, 0, 20, "actor 20 failed: boom", List.of(b1.curr())));
    BarrierDecision.StartRecovery<String> r =
        (BarrierDecision.StartRecovery<String>) out.get(out.size() - 1);
    assertThat(r.reason()).isEqualTo("node 2: actor 20 failed: boom");
    assertThat(r.committedEpoch()).isZero();
    c.onCompleted(done(2, b1, 0, new ProgressBatch(1)));
    assertThat(c.staleMessages()).isEqualTo(1);
    c.recovered(twoNodes);
    Barrier again = lastInjected();
    assertThat(again.kind()).isEqualTo(BarrierKind.INITIAL);
    assertThat(again.prev()).isZero();
    assertThat(again.curr()).isGreaterThan(b1.curr());
  }

  @Test
  void collectTimeoutNamesTheSilentNodes() {
    GlobalBarrierCore<String> c = core(1, 10);
    c.onCompleted(done(1, lastInjected(), 0, new ProgressBatch(1)));
    clock.advanceMillis(5_000);
    c.tick();
    BarrierDecision.StartRecovery<String> r =
        (BarrierDecision.StartRecovery<String>) out.get(out.size() - 1);
    assertThat(r.reason()).startsWith("collect timeout").endsWith("ms for nodes [2]");
  }

  @Test
  void anAnswerForAnEpochNotInFlightIsABug() {
    GlobalBarrierCore<String> c = core(1, 10);
    Barrier b = lastInjected();
    c.onCompleted(done(1, b, 0, new ProgressBatch(1)));
    assertThatThrownBy(() -> c.onCompleted(done(1, b, 0, new ProgressBatch(1))))
        .hasMessageContaining("node 1 completed")
        .hasMessageContaining("answered already");
  }
}
