package dev.tideway.storage.engine;

import static dev.tideway.storage.engine.StorageEngineTest.key;
import static dev.tideway.storage.engine.StorageEngineTest.syncCommit;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.storage.api.Epochs;
import dev.tideway.storage.api.LocalStateStore;
import dev.tideway.storage.api.StorageOptions;
import dev.tideway.storage.objectstore.InMemoryObjectStore;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A get of a key past the last key of its vnode in every SST skips the SSTs ({@link
 * SegmentBounds}); keys at or before that bound, overwritten or deleted ones, and other vnodes are
 * still read from the SSTs, before and after compaction.
 */
class SegmentBoundsTest {
  @Test
  void everyStoredKeyIsFoundAndKeysPastTheBoundsAreAbsent() throws Exception {
    try (StorageEngine s =
        StorageEngine.open(new InMemoryObjectStore(), StorageOptions.defaults())) {
      LocalStateStore l = s.newLocal(5);
      l.init(Epochs.of(1));
      Map<Long, String> model = new HashMap<>(); // vnode * 1_000_000 + pk -> value
      for (int e = 1; e <= 6; e++) {
        for (int v = 0; v < 4; v++) {
          for (long pk = e * 100L; pk < e * 100L + 50; pk++) {
            // a new key, past every key of its vnode: the insert's lookup skips the SSTs
            assertThat(l.get(key(v, pk))).isNull();
            put(l, model, v, pk, "e" + e);
          }
        }
        if (e == 4) {
          put(l, model, 1, 105, "overwritten"); // behind the bound: found in an older SST
        }
        if (e == 5) {
          l.delete(key(2, 210), "e2".getBytes());
          model.remove(2_000_000L + 210);
        }
        l.sealCurrentEpoch(Epochs.of(e + 1));
        syncCommit(s, e);
        check(s, l, model, e);
      }
      s.compactNow(true);
      check(s, l, model, 6);
    }
  }

  private static void put(LocalStateStore l, Map<Long, String> model, int v, long pk, String val) {
    byte[] old = l.get(key(v, pk));
    if (old != null) {
      l.delete(key(v, pk), old);
    }
    l.insert(key(v, pk), val.getBytes());
    model.put(v * 1_000_000L + pk, val);
  }

  private static void check(
      StorageEngine s, LocalStateStore l, Map<Long, String> model, int committed) {
    for (int v = 0; v < 4; v++) {
      for (long pk = 100; pk < committed * 100L + 50; pk++) {
        String expected = model.get(v * 1_000_000L + pk);
        byte[] uncommitted = l.get(key(v, pk));
        byte[] stored = s.get(key(v, pk), Epochs.of(committed));
        assertThat(uncommitted == null ? null : new String(uncommitted))
            .as("vnode %s pk %s", v, pk)
            .isEqualTo(expected);
        assertThat(stored == null ? null : new String(stored))
            .as("committed vnode %s pk %s", v, pk)
            .isEqualTo(expected);
      }
      assertThat(l.get(key(v, committed * 100L + 50))).isNull();
      assertThat(l.get(key(v, Long.MAX_VALUE))).isNull();
    }
    assertThat(l.get(key(9, 100))).isNull();
    assertThat(s.get(key(9, 100), Epochs.of(committed))).isNull();
  }
}
