package dev.tideway.meta.barrier;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RecoveryBackoffTest {
  @Test
  void growsExponentiallyAndIsCapped() {
    RecoveryBackoff b = new RecoveryBackoff(100, 1_000, 2);
    assertThat(b.delayMs(0)).isZero();
    assertThat(b.delayMs(1)).isEqualTo(100);
    assertThat(b.delayMs(2)).isEqualTo(200);
    assertThat(b.delayMs(4)).isEqualTo(800);
    assertThat(b.delayMs(5)).isEqualTo(1_000);
    assertThat(b.delayMs(60)).isEqualTo(1_000);
  }

  @Test
  void causesAreClassifiedFromTheReasonsTheCoreGives() {
    assertThat(RecoveryCause.of("meta leader elected with epoch 3"))
        .isEqualTo(RecoveryCause.LEADER_ELECTED);
    assertThat(RecoveryCause.of("collect timeout: barrier x waited 5000 ms for nodes [1]"))
        .isEqualTo(RecoveryCause.COLLECT_TIMEOUT);
    assertThat(RecoveryCause.of("node 2 lost: unreachable")).isEqualTo(RecoveryCause.NODE_LOST);
    assertThat(RecoveryCause.of("node 2: actor 7 failed")).isEqualTo(RecoveryCause.ACTOR_FAILURE);
    assertThat(RecoveryCause.of("reset failed: node 1 did not answer"))
        .isEqualTo(RecoveryCause.RESET_FAILED);
  }
}
