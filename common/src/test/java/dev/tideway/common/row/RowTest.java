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
      if (same) {
        assertThat(y.hashCode()).isEqualTo(x.hashCode());
      }
    }
  }

  @Test
  void numericsAreEqualByValueAsSqlKeys() {
    Row zero = Row.of(new BigDecimal("0"), 0.0, 1.5f);
    Row zeros = Row.of(new BigDecimal("0.000"), -0.0, 1.5f);
    assertThat(zero).isEqualTo(zeros);
    assertThat(zero.hashCode()).isEqualTo(zeros.hashCode());
    assertThat(Row.of(new BigDecimal("1.5"))).isEqualTo(Row.of(new BigDecimal("1.50")));
    assertThat(Row.of(new BigDecimal("1.5")).hashCode())
        .isEqualTo(Row.of(new BigDecimal("1.50")).hashCode());
    assertThat(Row.of(Double.NaN)).isEqualTo(Row.of(Double.NaN));
    assertThat(Row.of(new BigDecimal("1.5"))).isNotEqualTo(Row.of(new BigDecimal("1.51")));
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
