package dev.tideway.common.testing;

import dev.tideway.common.key.OrderType;
import dev.tideway.common.row.Row;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Datums;
import dev.tideway.common.types.Interval;
import dev.tideway.common.types.Temporals;
import dev.tideway.common.types.TypeId;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

/**
 * jqwik generators for SQL types, values, schemas and rows, shared by every module's property tests
 * (through common's test-jar). Values are the Java values of {@link DataType}, at the precision the
 * column vectors keep (µs for temporal types, DATE within {@code int} days), and lean on the cases
 * that break encoders: MIN/MAX, NaN, ±Infinity, -0.0, empty strings, 0x00 bytes, non-ASCII and
 * supplementary characters, decimals with trailing zeros and 40 digits, negative and tie-breaking
 * intervals ({@code 1 mon} vs {@code 30 days}). Small alphabets make equal values and shared
 * prefixes common.
 *
 * <p>jqwik prints the seed of a failing property; replay it with {@code @Property(seed = "N")}.
 */
public final class SqlArbitraries {
  private SqlArbitraries() {}

  /** Every {@link TypeId}; DECIMAL unconstrained or {@code DECIMAL(p, s)}. */
  public static Arbitrary<DataType> dataTypes() {
    Arbitrary<DataType> plain = Arbitraries.of(TypeId.class).map(DataType::of);
    Arbitrary<DataType> decimal =
        Arbitraries.integers()
            .between(1, 38)
            .flatMap(p -> Arbitraries.integers().between(0, p).map(s -> DataType.decimal(p, s)));
    return Arbitraries.frequencyOf(Tuple.of(6, plain), Tuple.of(1, decimal));
  }

  /** 1 to {@code maxColumns} column types. */
  public static Arbitrary<List<DataType>> schemas(int maxColumns) {
    return dataTypes().list().ofMinSize(1).ofMaxSize(maxColumns);
  }

  /** ASC/DESC × NULLS FIRST/LAST. */
  public static Arbitrary<OrderType> orderTypes() {
    return Arbitraries.of(
        OrderType.ASC, OrderType.DESC, OrderType.ASC_NULLS_FIRST, OrderType.DESC_NULLS_LAST);
  }

  /**
   * Arbitraries per type, built once: jqwik memoizes generators per arbitrary instance, so reusing
   * them inside {@code flatMap} (a new schema per try) keeps generation fast.
   */
  private static final Map<DataType, Arbitrary<Object>> VALUES = new ConcurrentHashMap<>();

  private static final Map<DataType, Arbitrary<Object>> NULLABLE_VALUES = new ConcurrentHashMap<>();

  /** A value of {@code type} or NULL (about one in eight). */
  public static Arbitrary<Object> nullableValues(DataType type) {
    return NULLABLE_VALUES.computeIfAbsent(
        type,
        t -> Arbitraries.frequencyOf(Tuple.of(1, Arbitraries.just(null)), Tuple.of(7, values(t))));
  }

  /** A row of {@code types}, NULLs included. */
  public static Arbitrary<Row> rows(List<DataType> types) {
    List<Arbitrary<Object>> columns = new ArrayList<>(types.size());
    for (DataType t : types) {
      columns.add(nullableValues(t));
    }
    return Combinators.combine(columns).as(Row::of);
  }

  /** A random schema of up to {@code maxColumns} columns with {@code rows} rows of it. */
  public static Arbitrary<SchemaRows> schemaRows(int maxColumns, int maxRows) {
    return schemas(maxColumns)
        .flatMap(
            types ->
                rows(types)
                    .list()
                    .ofMinSize(1)
                    .ofMaxSize(maxRows)
                    .map(rows -> new SchemaRows(types, rows)))
        .withoutEdgeCases(); // the values carry their extremes; combined edge cases are slow
  }

  /** A schema and rows of it. */
  public record SchemaRows(List<DataType> types, List<Row> rows) {}

  /** A non-NULL value of {@code type}. */
  public static Arbitrary<Object> values(DataType type) {
    return VALUES.computeIfAbsent(type, SqlArbitraries::newValues);
  }

  private static Arbitrary<Object> newValues(DataType type) {
    return switch (type.id()) {
      case BOOLEAN -> Arbitraries.of(true, false).asGeneric();
      case SMALLINT ->
          Arbitraries.oneOf(
                  Arbitraries.shorts(),
                  Arbitraries.shorts().between((short) -2, (short) 2),
                  Arbitraries.of(Short.MIN_VALUE, Short.MAX_VALUE))
              .asGeneric();
      case INT ->
          Arbitraries.oneOf(
                  Arbitraries.integers(),
                  Arbitraries.integers().between(-2, 2),
                  Arbitraries.of(Integer.MIN_VALUE, Integer.MAX_VALUE))
              .asGeneric();
      case BIGINT -> longs().asGeneric();
      case REAL -> floats().asGeneric();
      case DOUBLE -> doubles().asGeneric();
      case DECIMAL -> decimals(type).asGeneric();
      case VARCHAR -> strings().asGeneric();
      case BYTEA -> bytes().asGeneric();
      case DATE ->
          Arbitraries.oneOf(
                  Arbitraries.integers(),
                  Arbitraries.integers().between(-3, 3),
                  Arbitraries.of(Integer.MIN_VALUE, Integer.MAX_VALUE))
              .map(d -> (Object) LocalDate.ofEpochDay(d));
      case TIME ->
          Arbitraries.longs()
              .between(0, Interval.MICROS_PER_DAY - 1)
              .map(us -> (Object) Temporals.microsToTime(us));
      case TIMESTAMP -> timestampMicros().map(us -> (Object) Temporals.microsToTimestamp(us));
      case TIMESTAMPTZ -> timestampMicros().map(us -> (Object) Temporals.microsToInstant(us));
      case INTERVAL -> intervals().asGeneric();
    };
  }

  private static Arbitrary<Long> longs() {
    return Arbitraries.oneOf(
        Arbitraries.longs(),
        Arbitraries.longs().between(-3, 3),
        Arbitraries.of(Long.MIN_VALUE, Long.MAX_VALUE, -1L, 0L));
  }

  /** µs since the epoch whose LocalDateTime / Instant converts back exactly. */
  private static Arbitrary<Long> timestampMicros() {
    return Arbitraries.oneOf(
        Arbitraries.longs().between(Long.MIN_VALUE + 1_000_000, Long.MAX_VALUE),
        Arbitraries.longs().between(-3_000_000, 3_000_000),
        Arbitraries.of(Long.MIN_VALUE + 1_000_000, Long.MAX_VALUE, 0L, -1L));
  }

  private static Arbitrary<Float> floats() {
    return Arbitraries.frequencyOf(
        Tuple.of(4, Arbitraries.integers().map(Float::intBitsToFloat)),
        Tuple.of(2, Arbitraries.floats().between(-3, 3).ofScale(1)),
        Tuple.of(
            3,
            Arbitraries.of(
                Float.NaN,
                Float.intBitsToFloat(0x7fc00001), // a NaN with another payload
                Float.POSITIVE_INFINITY,
                Float.NEGATIVE_INFINITY,
                -0.0f,
                0.0f,
                Float.MIN_VALUE,
                -Float.MIN_VALUE,
                Float.MAX_VALUE,
                -Float.MAX_VALUE,
                1.0f,
                -1.0f)));
  }

  private static Arbitrary<Double> doubles() {
    return Arbitraries.frequencyOf(
        Tuple.of(4, Arbitraries.longs().map(Double::longBitsToDouble)),
        Tuple.of(2, Arbitraries.doubles().between(-3, 3).ofScale(1)),
        Tuple.of(
            3,
            Arbitraries.of(
                Double.NaN,
                Double.longBitsToDouble(0xfff8000000000001L), // a negative-signed NaN
                Double.POSITIVE_INFINITY,
                Double.NEGATIVE_INFINITY,
                -0.0,
                0.0,
                Double.MIN_VALUE,
                -Double.MIN_VALUE,
                Double.MAX_VALUE,
                -Double.MAX_VALUE,
                1.0,
                -1.0)));
  }

  /**
   * Unconstrained: up to 40 digits at scales 0..30 (negative scales as a column normalises them)
   * plus values equal but for trailing zeros. {@code DECIMAL(p, s)}: at most p digits, exactly
   * scale s (as the column vectors store them).
   */
  private static Arbitrary<BigDecimal> decimals(DataType type) {
    if (type.precision() > 0) {
      BigInteger bound = BigInteger.TEN.pow(type.precision()).subtract(BigInteger.ONE);
      return Arbitraries.oneOf(
              Arbitraries.bigIntegers().between(bound.negate(), bound),
              Arbitraries.bigIntegers().between(BigInteger.valueOf(-3), BigInteger.valueOf(3)),
              Arbitraries.of(bound, bound.negate()))
          .map(u -> new BigDecimal(u, type.scale()));
    }
    BigInteger big = BigInteger.TEN.pow(40);
    Arbitrary<BigInteger> unscaled =
        Arbitraries.oneOf(
            Arbitraries.bigIntegers().between(big.negate(), big),
            Arbitraries.bigIntegers().between(BigInteger.valueOf(-1000), BigInteger.valueOf(1000)));
    Arbitrary<BigDecimal> random =
        Combinators.combine(unscaled, Arbitraries.integers().between(-10, 30)).as(BigDecimal::new);
    Arbitrary<BigDecimal> special =
        Arbitraries.of(
                "0",
                "0.00",
                "1",
                "1.0",
                "1.00",
                "-1",
                "-1.0",
                "10",
                "1E+1",
                "0.1",
                "-0.10",
                "100",
                "0.001",
                "-100.5",
                "99999999999999999999.99999")
            .map(BigDecimal::new);
    // as a column stores them: an unconstrained numeric has no negative scale (1E+1 is 10)
    return Arbitraries.frequencyOf(Tuple.of(3, random), Tuple.of(1, special))
        .map(v -> Datums.decimal(type, v));
  }

  /**
   * Strings from a small alphabet (NUL, controls, ASCII, 2-, 3- and 4-byte UTF-8) so prefixes and
   * equal values are common, or arbitrary valid code points.
   */
  private static Arbitrary<String> strings() {
    Arbitrary<String> small =
        Arbitraries.of(
                "",
                "\u0000",
                "\u0001",
                "a",
                "b",
                "z",
                "\u007f",
                "\u00e9",
                "\u00ff",
                "\u4e2d",
                "\uffff",
                "\uD83D\uDE00",
                "\uDBFF\uDFFF")
            .list()
            .ofMaxSize(5)
            .map(parts -> String.join("", parts));
    Arbitrary<String> wide =
        Arbitraries.integers()
            .between(0, Character.MAX_CODE_POINT)
            .filter(cp -> cp < Character.MIN_SURROGATE || cp > Character.MAX_SURROGATE)
            .list()
            .ofMaxSize(20)
            .map(
                cps -> {
                  StringBuilder sb = new StringBuilder();
                  cps.forEach(sb::appendCodePoint);
                  return sb.toString();
                });
    // No jqwik edge cases: "" and NUL are in the alphabet, and computing edge cases of nested
    // lists inside flatMap made generation ~50x slower.
    return Arbitraries.frequencyOf(
            Tuple.of(3, small),
            Tuple.of(2, wide),
            Tuple.of(1, Arbitraries.strings().ofMaxLength(30).alpha().numeric()))
        .withoutEdgeCases();
  }

  private static Arbitrary<byte[]> bytes() {
    Arbitrary<Byte> b =
        Arbitraries.oneOf(
            Arbitraries.bytes(),
            Arbitraries.of((byte) 0, (byte) 1, (byte) 0x7f, (byte) 0x80, (byte) 0xff));
    return b.list()
        .ofMaxSize(12)
        .withoutEdgeCases() // the empty array and 0x00 come often enough; see strings()
        .map(
            list -> {
              byte[] out = new byte[list.size()];
              for (int i = 0; i < out.length; i++) {
                out[i] = list.get(i);
              }
              return out;
            });
  }

  /**
   * Intervals with extreme fields, and small ones over months, days and whole-day µs so that equal
   * lengths with different fields ({@code 1 mon} = {@code 30 days} = {@code 720:00:00}) occur.
   */
  private static Arbitrary<Interval> intervals() {
    Arbitrary<Interval> any =
        Combinators.combine(Arbitraries.integers(), Arbitraries.integers(), Arbitraries.longs())
            .as(Interval::new);
    Arbitrary<Interval> ties =
        Combinators.combine(
                Arbitraries.integers().between(-2, 2),
                Arbitraries.of(-60, -30, -1, 0, 1, 30, 60),
                Arbitraries.of(-30L, -1L, 0L, 1L, 30L).map(d -> d * Interval.MICROS_PER_DAY))
            .as(Interval::new);
    Arbitrary<Interval> extreme =
        Arbitraries.of(
            new Interval(Integer.MIN_VALUE, Integer.MIN_VALUE, Long.MIN_VALUE),
            new Interval(Integer.MAX_VALUE, Integer.MAX_VALUE, Long.MAX_VALUE),
            new Interval(Integer.MIN_VALUE, Integer.MAX_VALUE, Long.MIN_VALUE),
            new Interval(0, 0, Long.MIN_VALUE),
            new Interval(0, 0, -1),
            Interval.ZERO);
    return Arbitraries.frequencyOf(Tuple.of(3, any), Tuple.of(3, ties), Tuple.of(1, extreme));
  }
}
