package dev.tideway.common.key;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tideway.common.chunk.Op;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.chunk.StreamChunkBuilder;
import dev.tideway.common.row.GrowableBytes;
import dev.tideway.common.row.Row;
import dev.tideway.common.testing.SqlArbitraries;
import dev.tideway.common.testing.SqlArbitraries.SchemaRows;
import dev.tideway.common.testing.Values;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Interval;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The memcomparable contract: byte order equals SQL order for every type, direction and NULL
 * placement, single- and multi-column; decoding restores the key; the chunk path writes the same
 * bytes as the row path. jqwik prints the seed of a failure; replay with {@code @Property(seed =
 * "N")}.
 */
class KeySerdeTest {
  /** Two keys of one random key schema; {@code b} shares a random subset of {@code a}'s values. */
  record KeyPair(List<DataType> types, List<OrderType> orders, Row a, Row b) {}

  /**
   * One key column: its type, order and the values of both keys (equal about a third of the time).
   */
  record Column(DataType type, OrderType order, Object a, Object b) {}

  /** Per type, built once so jqwik's generator memoization applies inside flatMap. */
  private static final Map<DataType, Arbitrary<Column>> COLUMNS = new ConcurrentHashMap<>();

  private static Arbitrary<Column> column(DataType t) {
    return COLUMNS.computeIfAbsent(
        t,
        type ->
            Combinators.combine(
                    SqlArbitraries.orderTypes(),
                    SqlArbitraries.nullableValues(type),
                    SqlArbitraries.nullableValues(type),
                    Arbitraries.integers().between(0, 2))
                .as((o, a, b, same) -> new Column(type, o, a, same == 0 ? a : b)));
  }

  @Provide
  Arbitrary<KeyPair> keyPairs() {
    return SqlArbitraries.dataTypes()
        .flatMap(KeySerdeTest::column)
        .list()
        .ofMinSize(1)
        .ofMaxSize(4)
        .withoutEdgeCases() // values carry their extremes; jqwik's combined edge cases cost 5x
        .map(
            cols ->
                new KeyPair(
                    cols.stream().map(Column::type).toList(),
                    cols.stream().map(Column::order).toList(),
                    Row.of(cols.stream().map(Column::a).toArray()),
                    Row.of(cols.stream().map(Column::b).toArray())));
  }

  @Property(tries = 3000)
  void byteOrderEqualsSqlOrder(@ForAll("keyPairs") KeyPair p) {
    KeySerde serde = new KeySerde(p.types(), p.orders());
    int bytes = Integer.signum(KeySerde.compare(serde.encode(p.a()), serde.encode(p.b())));
    int sql = Integer.signum(Values.compareKeys(p.types(), p.orders(), p.a(), p.b()));
    assertThat(bytes).as("%s: %s vs %s", serde, p.a(), p.b()).isEqualTo(sql);
  }

  @Property(tries = 1500)
  void decodeRestoresTheKey(@ForAll("keyPairs") KeyPair p) {
    KeySerde serde = new KeySerde(p.types(), p.orders());
    Row decoded = serde.decode(serde.encode(p.a()));
    for (int c = 0; c < p.types().size(); c++) {
      assertThat(Values.sameKeyValue(p.types().get(c), p.a().get(c), decoded.get(c)))
          .as("%s column %s: %s decoded as %s", serde, c, p.a(), decoded)
          .isTrue();
    }
  }

  @Property(tries = 300)
  void chunkPathWritesTheRowPathBytes(
      @ForAll("schemaRows") SchemaRows s, @ForAll("orders") List<OrderType> someOrders) {
    // key columns: the chunk's columns in reverse, so key column k != chunk column k
    int n = s.types().size();
    int[] indices = new int[n];
    List<DataType> keyTypes = new ArrayList<>();
    List<OrderType> orders = new ArrayList<>();
    for (int k = 0; k < n; k++) {
      indices[k] = n - 1 - k;
      keyTypes.add(s.types().get(indices[k]));
      orders.add(someOrders.get(k % someOrders.size()));
    }
    KeySerde serde = new KeySerde(keyTypes, orders);
    StreamChunk chunk = chunkOf(s);
    GrowableBytes out = new GrowableBytes();
    for (int i = 0; i < chunk.size(); i++) {
      out.reset();
      serde.encodeTo(out, chunk, i, indices);
      Row key = s.rows().get(i).project(indices);
      assertThat(out.toByteArray()).as("row %s key %s", i, key).isEqualTo(serde.encode(key));
    }
  }

  @Provide
  Arbitrary<SchemaRows> schemaRows() {
    return SqlArbitraries.schemaRows(5, 20);
  }

  @Provide
  Arbitrary<List<OrderType>> orders() {
    return SqlArbitraries.orderTypes().list().ofMinSize(1).ofMaxSize(5);
  }

  static StreamChunk chunkOf(SchemaRows s) {
    StreamChunkBuilder b = new StreamChunkBuilder(s.types(), s.rows().size());
    for (Row r : s.rows()) {
      b.append(Op.INSERT, r);
    }
    return b.build();
  }

  @Property(tries = 300)
  void prefixEncodingIsABytePrefixOfTheKey(@ForAll("keyPairs") KeyPair p) {
    KeySerde serde = new KeySerde(p.types(), p.orders());
    byte[] full = serde.encode(p.a());
    for (int k = 0; k <= p.types().size(); k++) {
      GrowableBytes prefix = new GrowableBytes();
      serde.encodePrefixTo(prefix, Row.of(p.a().toList().subList(0, k)));
      assertThat(Arrays.copyOf(full, prefix.size())).isEqualTo(prefix.toByteArray());
    }
  }

  // ---- the cases behind the properties, spelled out ----

  private static byte[] key(DataType type, OrderType order, Object v) {
    return new KeySerde(List.of(type), List.of(order)).encode(Row.of(v));
  }

  @Example
  void sqlEqualValuesEncodeIdentically() {
    for (OrderType o : List.of(OrderType.ASC, OrderType.DESC)) {
      DataType d = DataType.DECIMAL;
      assertThat(key(d, o, new BigDecimal("1.0"))).isEqualTo(key(d, o, new BigDecimal("1.00")));
      assertThat(key(d, o, new BigDecimal("10"))).isEqualTo(key(d, o, new BigDecimal("1E+1")));
      assertThat(key(d, o, new BigDecimal("0.000"))).isEqualTo(key(d, o, BigDecimal.ZERO));
      assertThat(key(DataType.DOUBLE, o, -0.0)).isEqualTo(key(DataType.DOUBLE, o, 0.0));
      assertThat(key(DataType.REAL, o, -0.0f)).isEqualTo(key(DataType.REAL, o, 0.0f));
      assertThat(key(DataType.DOUBLE, o, Double.longBitsToDouble(0xfff8000000000001L)))
          .isEqualTo(key(DataType.DOUBLE, o, Double.NaN));
    }
  }

  @Example
  void nanSortsAboveInfinityAndNullsFollowTheirPlacement() {
    KeySerde asc = new KeySerde(List.of(DataType.DOUBLE), List.of(OrderType.ASC));
    List<byte[]> keys = new ArrayList<>();
    for (Double v :
        new Double[] {
          null, Double.NaN, Double.POSITIVE_INFINITY, 1.0, -0.0, -1e300, Double.NEGATIVE_INFINITY
        }) {
      keys.add(asc.encode(Row.of(v)));
    }
    keys.sort(KeySerde::compare);
    assertThat(keys.stream().map(k -> asc.decode(k).get(0)).toList())
        .containsExactly(
            Double.NEGATIVE_INFINITY, -1e300, 0.0, 1.0, Double.POSITIVE_INFINITY, Double.NaN, null);
    KeySerde desc = new KeySerde(List.of(DataType.DOUBLE), List.of(OrderType.DESC));
    assertThat(
            KeySerde.compare(desc.encode(Row.of((Object) null)), desc.encode(Row.of(Double.NaN))))
        .as("DESC NULLS FIRST")
        .isNegative();
    KeySerde descLast = new KeySerde(List.of(DataType.DOUBLE), List.of(OrderType.DESC_NULLS_LAST));
    assertThat(
            KeySerde.compare(
                descLast.encode(Row.of((Object) null)),
                descLast.encode(Row.of(Double.NEGATIVE_INFINITY))))
        .as("DESC NULLS LAST")
        .isPositive();
  }

  @Example
  void stringsWithZeroBytesStayPrefixFreeInMultiColumnKeys() {
    KeySerde serde = KeySerde.ascending(List.of(DataType.VARCHAR, DataType.VARCHAR));
    // ("a", "\u00ff") < ("a\0", "") < ("a\u0001", "") < ("ab", ""): the first column decides
    List<Row> ordered =
        List.of(Row.of("a", "\u00ff"), Row.of("a\0", ""), Row.of("a\u0001", ""), Row.of("ab", ""));
    for (int i = 0; i + 1 < ordered.size(); i++) {
      assertThat(KeySerde.compare(serde.encode(ordered.get(i)), serde.encode(ordered.get(i + 1))))
          .as("%s < %s", ordered.get(i), ordered.get(i + 1))
          .isNegative();
    }
    assertThat(serde.decode(serde.encode(Row.of("a\0b", "\0")))).isEqualTo(Row.of("a\0b", "\0"));
  }

  @Example
  void intervalsOfEqualLengthBreakTiesLikeInterval() {
    KeySerde serde = KeySerde.ascending(List.of(DataType.INTERVAL));
    Interval month = new Interval(1, 0, 0);
    Interval days = new Interval(0, 30, 0);
    Interval micros = Interval.ofMicros(30 * Interval.MICROS_PER_DAY);
    assertThat(
            Integer.signum(
                KeySerde.compare(serde.encode(Row.of(month)), serde.encode(Row.of(days)))))
        .isEqualTo(Integer.signum(month.compareTo(days)));
    assertThat(
            Integer.signum(
                KeySerde.compare(serde.encode(Row.of(days)), serde.encode(Row.of(micros)))))
        .isEqualTo(Integer.signum(days.compareTo(micros)));
  }

  @Example
  void decodeRestoresTheDecimalScaleOfTheColumn() {
    KeySerde typed = KeySerde.ascending(List.of(DataType.decimal(10, 2)));
    assertThat(typed.decode(typed.encode(Row.of(new BigDecimal("1.50")))).get(0).toString())
        .isEqualTo("1.50");
    KeySerde plain = KeySerde.ascending(List.of(DataType.DECIMAL));
    assertThat(plain.decode(plain.encode(Row.of(new BigDecimal("1.500")))).get(0).toString())
        .isEqualTo("1.5");
    assertThat(plain.decode(plain.encode(Row.of(new BigDecimal("1E+3")))).get(0).toString())
        .isEqualTo("1000");
  }

  @Example
  void corruptKeysFailNamingTheKeyAndTypes() {
    KeySerde serde = KeySerde.ascending(List.of(DataType.BIGINT, DataType.VARCHAR));
    byte[] good = serde.encode(Row.of(7L, "x"));
    assertThatThrownBy(() -> serde.decode(Arrays.copyOf(good, good.length - 1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("[bigint, character varying]");
    assertThatThrownBy(() -> serde.decode(Arrays.copyOf(good, good.length + 1)))
        .hasMessageContaining("1 trailing bytes");
    byte[] badTag = good.clone();
    badTag[0] = 0x07;
    assertThatThrownBy(() -> serde.decode(badTag)).hasMessageContaining("tag 0x07 of column 0");
    assertThatThrownBy(() -> serde.encode(Row.of(7L)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("has 1 values but the key has 2 columns");
  }

  @Example
  void valuesOutsideTheFormatAndMismatchedChunksAreRejected() {
    KeySerde decimal = KeySerde.ascending(List.of(DataType.DECIMAL));
    assertThatThrownBy(() -> decimal.encode(Row.of(new BigDecimal("1E+2147483647"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("exponent outside the key format's range");
    StreamChunkBuilder b = new StreamChunkBuilder(List.of(DataType.INT), 1);
    b.append(Op.INSERT, Row.of(1));
    KeySerde bigint = KeySerde.ascending(List.of(DataType.BIGINT));
    assertThatThrownBy(() -> bigint.encodeTo(new GrowableBytes(), b.build(), 0, new int[] {0}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("chunk column 0 is integer but key column 0 is bigint");
  }

  /**
   * The format is persisted (storage keys): these bytes must never change. A failure here means
   * stored keys would no longer sort or decode; bump {@link KeySerde#FORMAT_VERSION} and migrate
   * instead of editing the expected hex.
   */
  @Example
  void goldenBytesOfFormatVersion1() {
    List<DataType> types =
        List.of(
            DataType.BOOLEAN,
            DataType.SMALLINT,
            DataType.INT,
            DataType.BIGINT,
            DataType.REAL,
            DataType.DOUBLE,
            DataType.decimal(10, 3),
            DataType.VARCHAR,
            DataType.BYTEA,
            DataType.DATE,
            DataType.TIME,
            DataType.TIMESTAMP,
            DataType.TIMESTAMPTZ,
            DataType.INTERVAL,
            DataType.BIGINT);
    List<OrderType> orders = new ArrayList<>();
    for (int i = 0; i < types.size(); i++) {
      orders.add(i % 2 == 0 ? OrderType.ASC : OrderType.DESC);
    }
    Row row =
        Row.of(
            true,
            (short) -2,
            3,
            -4L,
            1.5f,
            -2.25,
            new BigDecimal("-12.340"),
            "a\0é",
            new byte[] {0, (byte) 0xff},
            java.time.LocalDate.of(2024, 2, 29),
            java.time.LocalTime.of(12, 0, 0, 1_000),
            java.time.LocalDateTime.of(1969, 12, 31, 23, 59),
            java.time.Instant.ofEpochSecond(1_700_000_000L, 123_000),
            new Interval(1, -2, 3),
            null);
    KeySerde serde = new KeySerde(types, orders);
    byte[] bytes = serde.encode(row);
    assertThat(HexFormat.of().formatHex(bytes)).isEqualTo(GOLDEN_V1);
    assertThat(serde.decode(bytes).toString()).isEqualTo(row.toString());
  }

  static final String GOLDEN_V1 =
      "0101018001018000000301800000000000000301bfc0000001c00200000000000001017ffffffdf2dc"
          + "ff019eff003c56fffe0100ffff0001017fffb2b9018000000a0eebb0010180000000039386ff0180"
          + "060a24181e407b017ffffffffdccbc717ffc7ffffffe800000017ffffffffffffffc02";
}
