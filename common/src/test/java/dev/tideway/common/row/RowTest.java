package dev.tideway.common.row;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.common.random.RandomSource;
import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Rows are map keys throughout the executors: equality is by value ({@code byte[]} by content), and
 * the cached hash is the content hash, whichever row of an equal pair was hashed first. Replay with
 * {@code -Dtideway.seed=N}.
 */
class RowTest {
  @Test
  void equalsAndHashCodeFollowTheValuesWithBytesByContent() {
    RandomSource rnd = RandomSource.fromPropertyOr(3);
    for (int round = 0; round < 2000; round++) {
      Object[] a = new Object[rnd.nextInt(0, 5)];
      for (int i = 0; i < a.length; i++) {
        a[i] = value(rnd);
      }
      Object[] b = a.clone();
      if (a.length > 0 && rnd.chance(0.5)) {
        int i = rnd.nextInt(a.length);
        b[i] = value(rnd);
      }
      for (int i = 0; i < b.length; i++) {
        if (b[i] instanceof byte[] bytes) {
          b[i] = bytes.clone(); // equal content, another array
        }
      }
      Row x = Row.of(a);
      Row y = Row.of(b);
      if (rnd.chance(0.5)) {
        x.hashCode(); // one side's hash cached first
      }
      boolean same = Arrays.deepEquals(a, b);
      assertThat(x.equals(y))
          .as("seed %s round %s: %s vs %s", rnd.seed(), round, x, y)
          .isEqualTo(same);
      assertThat(y.equals(x)).isEqualTo(same);
      assertThat(x.hashCode()).isEqualTo(Arrays.deepHashCode(a));
      if (same) {
        assertThat(y.hashCode()).isEqualTo(x.hashCode());
      }
    }
  }

  @Test
  void aHashSetOfRowsFindsEqualRowsBuiltAnew() {
    Set<Row> rows = new HashSet<>();
    rows.add(Row.of(1L, "a", new byte[] {1, 2}));
    assertThat(rows.contains(Row.of(1L, "a", new byte[] {1, 2}))).isTrue();
    assertThat(rows.contains(Row.of(1L, "a", new byte[] {1, 3}))).isFalse();
    assertThat(rows.contains(Row.of(1L, null, new byte[] {1, 2}))).isFalse();
  }

  private static Object value(RandomSource rnd) {
    return switch (rnd.nextInt(6)) {
      case 0 -> null;
      case 1 -> (long) rnd.nextInt(3);
      case 2 -> "s" + rnd.nextInt(3);
      case 3 -> new byte[] {(byte) rnd.nextInt(2), 7};
      case 4 -> new BigDecimal(rnd.nextInt(3)).setScale(2);
      default -> LocalDateTime.of(2026, 1, 1, 0, 0).plusSeconds(rnd.nextInt(2));
    };
  }
}
