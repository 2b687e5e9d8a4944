package dev.tideway.barrier.util;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.common.random.RandomSource;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class IntIntMapTest {
  @Test
  void behavesLikeAHashMapUnderRandomPutsAndRemoves() {
    RandomSource random = RandomSource.fromPropertyOr(11);
    IntIntMap map = new IntIntMap(2);
    Map<Integer, Integer> model = new HashMap<>();
    for (int i = 0; i < 50_000; i++) {
      int key = random.nextInt(-500, 500);
      if (random.chance(0.3)) {
        assertThat(map.remove(key))
            .as("seed %s remove %s", random.seed(), key)
            .isEqualTo(model.remove(key) != null);
      } else {
        int v = random.nextInt();
        map.put(key, v);
        model.put(key, v);
      }
      int probe = random.nextInt(-500, 500);
      assertThat(map.get(probe, Integer.MIN_VALUE))
          .as("seed %s get %s", random.seed(), probe)
          .isEqualTo(model.getOrDefault(probe, Integer.MIN_VALUE));
    }
    assertThat(map.size()).isEqualTo(model.size());
  }
}
