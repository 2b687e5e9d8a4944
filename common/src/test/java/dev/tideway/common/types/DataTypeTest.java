package dev.tideway.common.types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDateTime;
import org.junit.jupiter.api.Test;

class DataTypeTest {
  @Test
  void parsesTheNamesUsersWrite() {
    assertThat(DataType.parse("INTEGER")).isEqualTo(DataType.INT);
    assertThat(DataType.parse("int8")).isEqualTo(DataType.BIGINT);
    assertThat(DataType.parse("double  precision")).isEqualTo(DataType.DOUBLE);
    assertThat(DataType.parse("numeric(10, 2)")).isEqualTo(DataType.decimal(10, 2));
    assertThat(DataType.parse("timestamp with time zone")).isEqualTo(DataType.TIMESTAMPTZ);
    assertThat(DataType.parse("varchar(20)")).isEqualTo(DataType.VARCHAR);
  }

  @Test
  void rejectsBadTypesWithTheirText() {
    assertThatThrownBy(() -> DataType.parse("integr"))
        .hasMessageContaining("unknown type 'integr'");
    assertThatThrownBy(() -> DataType.parse("numeric(2,5)")).hasMessageContaining("scale");
    assertThatThrownBy(() -> DataType.parse("int(3)")).hasMessageContaining("takes no parameters");
  }

  @Test
  void everyTypeCodeRoundTrips() {
    for (TypeId id : TypeId.values()) {
      assertThat(TypeId.fromCode(id.code())).isEqualTo(id);
    }
    assertThatThrownBy(() -> TypeId.fromCode((byte) 99)).hasMessageContaining("99");
  }

  @Test
  void decimalValuesAreRoundedToScaleAndCheckedForPrecision() {
    DataType t = DataType.decimal(5, 2);
    assertThat(Datums.decimal(t, new BigDecimal("1.005"))).isEqualTo(new BigDecimal("1.01"));
    assertThatThrownBy(() -> Datums.decimal(t, new BigDecimal("1234.5")))
        .hasMessageContaining("numeric field overflow");
  }

  @Test
  void textFormIsPostgres() {
    assertThat(Datums.toText(DataType.BOOLEAN, true)).isEqualTo("t");
    assertThat(Datums.toText(DataType.BYTEA, new byte[] {0, (byte) 255})).isEqualTo("\\x00ff");
    assertThat(
            Datums.toText(DataType.TIMESTAMP, LocalDateTime.of(2024, 1, 2, 3, 4, 5, 600_000_000)))
        .isEqualTo("2024-01-02 03:04:05.6");
    assertThat(Datums.toText(DataType.TIMESTAMPTZ, Instant.parse("2024-01-02T03:04:05Z")))
        .isEqualTo("2024-01-02 03:04:05+00");
    assertThat(Datums.toText(DataType.DOUBLE, 3.0)).isEqualTo("3");
    // PostgreSQL's float8out/float4out: shortest exact digits, exponent outside [-4, 15) / [-4, 6)
    assertThat(Datums.toText(DataType.DOUBLE, 30000149917.5)).isEqualTo("30000149917.5");
    assertThat(Datums.toText(DataType.DOUBLE, 123456789012345.0)).isEqualTo("123456789012345");
    assertThat(Datums.toText(DataType.DOUBLE, 1e15)).isEqualTo("1e+15");
    assertThat(Datums.toText(DataType.DOUBLE, 1.2345678901234568e17))
        .isEqualTo("1.2345678901234568e+17");
    assertThat(Datums.toText(DataType.DOUBLE, 0.0001)).isEqualTo("0.0001");
    assertThat(Datums.toText(DataType.DOUBLE, 0.00001)).isEqualTo("1e-05");
    assertThat(Datums.toText(DataType.DOUBLE, -2.5e-300)).isEqualTo("-2.5e-300");
    assertThat(Datums.toText(DataType.DOUBLE, 0.1 + 0.2)).isEqualTo("0.30000000000000004");
    assertThat(Datums.toText(DataType.DOUBLE, -0.0)).isEqualTo("-0");
    assertThat(Datums.toText(DataType.REAL, 123456f)).isEqualTo("123456");
    assertThat(Datums.toText(DataType.REAL, 1234567f)).isEqualTo("1.234567e+06");
    assertThat(Datums.toText(DataType.REAL, 1.5f)).isEqualTo("1.5");
    assertThat(Datums.toText(DataType.INTERVAL, new Interval(14, 3, 3_723_000_000L)))
        .isEqualTo("1 year 2 mons 3 days 01:02:03");
    assertThatThrownBy(() -> Datums.fromText(DataType.DATE, "2024-13-01"))
        .hasMessageContaining("invalid input syntax for type date");
  }

  @Test
  void sqlOrderTreatsNegativeZeroAsZeroAndNanAsGreatest() {
    assertThat(Datums.compare(DataType.DOUBLE, -0.0, 0.0)).isZero();
    assertThat(Datums.compare(DataType.DOUBLE, Double.NaN, Double.POSITIVE_INFINITY)).isPositive();
    assertThat(Datums.compare(DataType.DECIMAL, new BigDecimal("1.0"), new BigDecimal("1.00")))
        .isZero();
    assertThat(Datums.compare(DataType.VARCHAR, "\u00e9", "z")).isPositive(); // UTF-8 byte order
    assertThat(Datums.compareNullable(DataType.INT, null, 1, true)).isNegative();
    assertThat(Datums.compareNullable(DataType.INT, null, 1, false)).isPositive();
  }

  @Test
  void intervalsCompareByLengthWithATotalOrder() {
    Interval month = new Interval(1, 0, 0);
    Interval thirtyDays = new Interval(0, 30, 0);
    assertThat(month.compareTo(new Interval(0, 29, Interval.MICROS_PER_DAY - 1))).isPositive();
    assertThat(month.compareTo(thirtyDays)).isNotZero().isEqualTo(-thirtyDays.compareTo(month));
    Interval huge = new Interval(Integer.MAX_VALUE, Integer.MAX_VALUE, Long.MAX_VALUE);
    Interval tiny = new Interval(Integer.MIN_VALUE, Integer.MIN_VALUE, Long.MIN_VALUE);
    assertThat(huge.compareTo(tiny)).isPositive();
    assertThat(Datums.fromText(DataType.INTERVAL, "-1 days -00:00:01.5"))
        .isEqualTo(new Interval(0, -1, -1_500_000));
  }
}
