package dev.tideway.barrier.message;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tideway.barrier.epoch.EpochPair;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BarrierTest {
  private static final EpochPair E = new EpochPair(2 << 16, 1 << 16);

  @Test
  void mutationsThatForceACheckpointNeedACheckpointBarrier() {
    assertThatThrownBy(() -> new Barrier(E, BarrierKind.BARRIER, new Mutation.Stop(Set.of(3))))
        .hasMessageContaining("needs a checkpoint");
    assertThat(new Barrier(E, BarrierKind.BARRIER, new Mutation.Resume()).isCheckpoint()).isFalse();
    Barrier stop = new Barrier(E, BarrierKind.CHECKPOINT, new Mutation.Stop(Set.of(3)));
    assertThat(stop.stops(3)).isTrue();
    assertThat(stop.stops(4)).isFalse();
  }

  @Test
  void throttleRejectsNegativeRatesOtherThanUnlimited() {
    assertThatThrownBy(() -> new Mutation.Throttle(Map.of(7, -5L))).hasMessageContaining("actor 7");
    assertThat(new Mutation.Throttle(Map.of(7, Mutation.Throttle.UNLIMITED)).forcesCheckpoint())
        .isTrue();
  }

  @Test
  void kindsRoundTripTheirByteCodes() {
    for (BarrierKind k : BarrierKind.values()) {
      assertThat(BarrierKind.fromCode(k.code())).isEqualTo(k);
    }
  }
}
