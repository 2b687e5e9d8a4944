package dev.tideway.common.chunk;

import dev.tideway.common.random.RandomSource;
import dev.tideway.common.row.Row;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Interval;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.List;

/** Seeded random chunks and values of every SQL type, for codec tests (shipped in the test-jar). */
public final class RandomChunks {
  /** One type of each kind, DECIMAL both unconstrained and with precision and scale. */
  public static final List<DataType> ALL_TYPES =
      List.of(
          DataType.BOOLEAN,
          DataType.SMALLINT,
          DataType.INT,
          DataType.BIGINT,
          DataType.REAL,
          DataType.DOUBLE,
          DataType.DECIMAL,
          DataType.decimal(12, 3),
          DataType.VARCHAR,
          DataType.BYTEA,
          DataType.DATE,
          DataType.TIME,
          DataType.TIMESTAMP,
          DataType.TIMESTAMPTZ,
          DataType.INTERVAL);

  private RandomChunks() {}

  /** A chunk of {@code rows} random rows (NULLs, update pairs and hidden rows included). */
  public static StreamChunk chunk(RandomSource random, List<DataType> types, int rows) {
    StreamChunkBuilder b = new StreamChunkBuilder(types, random.nextInt(1, 16));
    for (int i = 0; i < rows; i++) {
      Object[] values = new Object[types.size()];
      for (int c = 0; c < values.length; c++) {
        values[c] = random.chance(0.2) ? null : value(random, types.get(c));
      }
      Op op = Op.values()[random.nextInt(2)];
      if (i + 1 < rows && random.chance(0.2)) {
        b.append(Op.UPDATE_DELETE, Row.wrap(values));
        maybeHide(random, b);
        i++;
        op = Op.UPDATE_INSERT;
      }
      b.append(op, Row.wrap(values));
      maybeHide(random, b);
    }
    return b.build();
  }

  private static void maybeHide(RandomSource random, StreamChunkBuilder b) {
    if (random.chance(0.15)) {
      b.hideLast();
    }
  }

  /** A random non-null Java value of {@code type}, at the precision the type keeps. */
  public static Object value(RandomSource r, DataType type) {
    return switch (type.id()) {
      case BOOLEAN -> r.nextBoolean();
      case SMALLINT -> (short) r.nextInt();
      case INT -> r.nextInt();
      case BIGINT -> r.nextLong();
      case REAL -> r.chance(0.05) ? Float.NaN : (float) (r.nextDouble() * 1e6 - 5e5);
      case DOUBLE -> r.chance(0.05) ? -0.0 : r.nextDouble() * 1e12 - 5e11;
      case DECIMAL ->
          type.precision() > 0
              ? BigDecimal.valueOf(r.nextLong(-999_999_999L, 1_000_000_000L), type.scale())
              : new BigDecimal(BigInteger.valueOf(r.nextLong()), r.nextInt(0, 10));
      case VARCHAR -> randomString(r);
      case BYTEA -> {
        byte[] b = new byte[r.nextInt(0, 20)];
        r.nextBytes(b);
        yield b;
      }
      case DATE -> LocalDate.ofEpochDay(r.nextLong(-700_000, 2_900_000));
      case TIME -> LocalTime.ofNanoOfDay(r.nextLong(0, 86_400_000_000L) * 1000);
      case TIMESTAMP ->
          LocalDateTime.of(
              LocalDate.ofEpochDay(r.nextLong(-100_000, 100_000)),
              LocalTime.ofNanoOfDay(r.nextLong(0, 86_400_000_000L) * 1000));
      case TIMESTAMPTZ ->
          Instant.ofEpochSecond(
              r.nextLong(-10_000_000_000L, 10_000_000_000L), r.nextInt(0, 1_000_000) * 1000L);
      case INTERVAL -> new Interval(r.nextInt(), r.nextInt(), r.nextLong());
    };
  }

  private static String randomString(RandomSource r) {
    StringBuilder sb = new StringBuilder();
    int n = r.nextInt(0, 12);
    for (int i = 0; i < n; i++) {
      sb.appendCodePoint(r.chance(0.2) ? r.nextInt(0x80, 0x2FFF) : r.nextInt(0x20, 0x7F));
    }
    return sb.toString();
  }
}
