package dev.tideway.meta.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tideway.common.plan.DispatcherKind;
import dev.tideway.common.vnode.VirtualNode;
import dev.tideway.common.vnode.VnodeBitmap;
import dev.tideway.meta.fragment.Fragmenter;
import dev.tideway.meta.fragment.IdAllocator;
import dev.tideway.meta.fragment.Plans;
import dev.tideway.meta.fragment.StreamFragment;
import dev.tideway.protocol.catalog.FragmentDistribution;
import dev.tideway.protocol.catalog.FragmentGraph.Actor;
import dev.tideway.protocol.catalog.FragmentGraph.Edge;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class ActorSchedulerTest {
  static final List<Worker> TWO = List.of(new Worker("a", 3), new Worker("b", 1));

  @Test
  void defaultParallelismIsTotalCoresSpreadByCores() {
    List<StreamFragment> fs = Fragmenter.fragment(Plans.countByK(1, 2, 3), new IdAllocator(100));
    List<Actor> actors = ActorScheduler.schedule(fs, Map.of(), TWO, 0, new IdAllocator(200));
    List<Actor> sourceActors = of(actors, fs.get(0).fragmentId());
    assertThat(sourceActors).hasSize(4);
    assertThat(sourceActors).extracting(Actor::node).containsExactly("a", "b", "a", "a");
    assertThat(sourceActors.get(0).vnodes()).isEqualTo(VnodeBitmap.range(0, 64));
    assertCovers(sourceActors);
    // the hash-exchange downstream reads from every upstream actor
    for (Actor a : of(actors, fs.get(1).fragmentId())) {
      assertThat(a.upstreamActorIds())
          .containsExactlyElementsOf(sourceActors.stream().map(Actor::actorId).toList());
    }
  }

  @Test
  void noShufflePairsAreCoLocatedWithTheSameVnodes() {
    StreamFragment up =
        new StreamFragment(
            1, Plans.source(9), FragmentDistribution.HASH, List.of(), List.of(), List.of());
    StreamFragment down =
        new StreamFragment(
            2,
            Plans.source(9),
            FragmentDistribution.HASH,
            List.of(new Edge(1, DispatcherKind.NO_SHUFFLE, List.of(), false)),
            List.of(),
            List.of());
    List<Actor> actors =
        ActorScheduler.schedule(List.of(up, down), Map.of(), TWO, 3, new IdAllocator(10));
    List<Actor> u = of(actors, 1);
    List<Actor> d = of(actors, 2);
    assertThat(d).hasSameSizeAs(u);
    for (int i = 0; i < u.size(); i++) {
      assertThat(d.get(i).node()).isEqualTo(u.get(i).node());
      assertThat(d.get(i).vnodes()).isEqualTo(u.get(i).vnodes());
      assertThat(d.get(i).upstreamActorIds()).containsExactly(u.get(i).actorId());
    }
  }

  @Test
  void singletonGetsOneActorWithAllVnodesAndNoWorkersIsRefused() {
    StreamFragment s =
        new StreamFragment(
            1, Plans.source(9), FragmentDistribution.SINGLETON, List.of(), List.of(), List.of());
    List<Actor> actors = ActorScheduler.schedule(List.of(s), Map.of(), TWO, 0, new IdAllocator(10));
    assertThat(actors)
        .singleElement()
        .satisfies(a -> assertThat(a.vnodes()).isEqualTo(VnodeBitmap.ALL));
    assertThatThrownBy(
            () -> ActorScheduler.schedule(List.of(s), Map.of(), List.of(), 0, new IdAllocator(10)))
        .hasMessageContaining("no compute nodes");
  }

  @Property(tries = 200)
  void everyHashFragmentCoversAllVnodesExactlyOnce(
      @ForAll @IntRange(min = 1, max = 6) int workerCount,
      @ForAll @IntRange(min = 1, max = 8) int cores,
      @ForAll @IntRange(min = 0, max = 300) int parallelism) {
    List<Worker> ws = new ArrayList<>();
    for (int i = 0; i < workerCount; i++) {
      ws.add(new Worker("w" + i, 1 + (cores + i) % 8));
    }
    List<StreamFragment> fs = Fragmenter.fragment(Plans.countByK(1, 2, 3), new IdAllocator(100));
    List<Actor> actors =
        ActorScheduler.schedule(fs, Map.of(), ws, parallelism, new IdAllocator(200));
    int expected =
        Math.min(parallelism == 0 ? ws.stream().mapToInt(Worker::cores).sum() : parallelism, 256);
    for (StreamFragment f : fs) {
      assertThat(of(actors, f.fragmentId())).hasSize(expected);
      assertCovers(of(actors, f.fragmentId()));
    }
  }

  static List<Actor> of(List<Actor> actors, int fragmentId) {
    return actors.stream().filter(a -> a.fragmentId() == fragmentId).toList();
  }

  static void assertCovers(List<Actor> actors) {
    int total = 0;
    VnodeBitmap union = VnodeBitmap.EMPTY;
    for (Actor a : actors) {
      assertThat(a.vnodes().intersect(union).isEmpty()).isTrue();
      union = union.union(a.vnodes());
      total += a.vnodes().count();
    }
    assertThat(total).isEqualTo(VirtualNode.COUNT);
  }
}
