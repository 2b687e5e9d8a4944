package dev.tideway.common.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorRefResolver;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every class common registers round-trips through the registry; a new one without a sample fails.
 */
class KryoRegistryRoundTripTest {
  private static ActorSystem<String> system;
  private static TidewayKryo kryo;

  @BeforeAll
  static void start() {
    system = ActorSystem.create(Behaviors.ignore(), "kryo-roundtrip");
    kryo = TidewayKryo.builder().actorRefResolver(() -> ActorRefResolver.get(system)).build();
  }

  @AfterAll
  static void stop() {
    system.terminate();
  }

  @Test
  void everyCoreClassHasASampleAndRoundTrips() {
    List<Object> samples = new ArrayList<>(Samples.core());
    ActorRef<String> child = system.systemActorOf(Behaviors.ignore(), "probe", Props.empty());
    samples.add(child);
    KryoRoundTrips.assertEverySampled(kryo, KryoIdRange.COMMON_CORE, samples);
    KryoRoundTrips.assertRoundTrips(kryo, samples);
  }

  @Test
  void actorRefWithoutAnActorSystemFailsSayingSo() {
    ActorRef<String> ref = system.systemActorOf(Behaviors.ignore(), "probe2", Props.empty());
    assertThatThrownBy(() -> TidewayKryo.create().serialize(List.of(ref)))
        .isInstanceOf(SerdeException.class)
        .hasMessageContaining("needs a Kryo registry built with an actor system")
        .extracting(e -> ((SerdeException) e).reason())
        .isEqualTo(SerdeException.Reason.NO_ACTOR_SYSTEM);
  }

  @Test
  void everyPlanClassHasASampleAndRoundTrips() {
    List<Object> samples = new java.util.ArrayList<>(Samples.plan());
    // newer than the pinned golden files (WireFormatCompatibilityTest), so sampled here
    samples.add(
        new dev.tideway.common.plan.SinkNode(
            java.util.Map.of("topic", "t"),
            Samples.table(16).schema(),
            List.of(0),
            Samples.table(17)));
    samples.add(
        new dev.tideway.common.plan.SourceBackfillNode(
            5,
            dev.tideway.common.plan.SourceConnector.KAFKA,
            java.util.Map.of("topic", "t"),
            Samples.table(16).schema(),
            Samples.table(18),
            40_000));
    KryoRoundTrips.assertEverySampled(kryo, KryoIdRange.COMMON_PLAN, samples);
    KryoRoundTrips.assertRoundTrips(kryo, samples);
  }

  @Test
  void onlyCommonRangesAreRegisteredInCommon() {
    assertThat(kryo.registrations())
        .allSatisfy(
            e ->
                assertThat(
                        KryoIdRange.COMMON_CORE.contains(e.id())
                            || KryoIdRange.COMMON_PLAN.contains(e.id()))
                    .as("id %s of %s", e.id(), e.type().getName())
                    .isTrue());
  }

  @Test
  void idsAreStableAcrossBuilds() {
    // Two nodes build their registries independently; the same class must get the same id.
    TidewayKryo other = TidewayKryo.create();
    assertThat(other.registrations().stream().map(e -> e.id() + "=" + e.type().getName()).toList())
        .isEqualTo(
            kryo.registrations().stream().map(e -> e.id() + "=" + e.type().getName()).toList());
    byte[] bytes = kryo.serialize(Samples.plan().get(2));
    assertThat(other.deserialize(bytes)).isEqualTo(Samples.plan().get(2));
  }
}
