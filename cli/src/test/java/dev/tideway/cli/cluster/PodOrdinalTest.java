package dev.tideway.cli.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PodOrdinalTest {
  @Test
  void aStatefulSetPodTakesItsIdFromItsOrdinal() {
    assertThat(PodOrdinal.resolve("--node-id", "ordinal", 1, "tideway-compute-0")).isEqualTo(1);
    assertThat(PodOrdinal.resolve("--node-id", "ordinal", 1, "my-release-compute-12"))
        .isEqualTo(13);
    assertThat(PodOrdinal.resolve("--store-space", "ordinal", 1000, "tw-frontend-1"))
        .isEqualTo(1001);
    assertThat(PodOrdinal.resolve("--node-id", "7", 1, "anything")).isEqualTo(7);
  }

  @Test
  void anythingElseIsRefusedNamingTheOption() {
    assertThatThrownBy(() -> PodOrdinal.resolve("--node-id", "ordinal", 1, "laptop"))
        .hasMessageContaining("--node-id ordinal")
        .hasMessageContaining("'laptop'");
    assertThatThrownBy(() -> PodOrdinal.resolve("--node-id", "-3", 1, "x-1"))
        .hasMessageContaining("--node-id must be a number or 'ordinal'");
  }
}
