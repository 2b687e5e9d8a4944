package dev.tideway.common.types;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;

/**
 * Conversions between the Java temporal values of {@link DataType} and their physical form in
 * column vectors and encodings: {@code DATE} as days since 1970-01-01, {@code TIME} as microseconds
 * of the day, {@code TIMESTAMP} / {@code TIMESTAMPTZ} as microseconds since 1970-01-01T00:00 (UTC
 * for {@code TIMESTAMPTZ}). Sub-microsecond digits are truncated, as PostgreSQL stores them.
 */
public final class Temporals {
  private Temporals() {}

  public static int dateToDays(LocalDate d) {
    return Math.toIntExact(d.toEpochDay());
  }

  public static LocalDate daysToDate(int days) {
    return LocalDate.ofEpochDay(days);
  }

  public static long timeToMicros(LocalTime t) {
    return t.toNanoOfDay() / 1_000;
  }

  public static LocalTime microsToTime(long micros) {
    return LocalTime.ofNanoOfDay(micros * 1_000);
  }

  public static long timestampToMicros(LocalDateTime ts) {
    return Math.addExact(
        Math.multiplyExact(ts.toEpochSecond(ZoneOffset.UTC), 1_000_000L), ts.getNano() / 1_000);
  }

  public static LocalDateTime microsToTimestamp(long micros) {
    long secs = Math.floorDiv(micros, 1_000_000L);
    int nanos = (int) Math.floorMod(micros, 1_000_000L) * 1_000;
    return LocalDateTime.ofEpochSecond(secs, nanos, ZoneOffset.UTC);
  }

  public static long instantToMicros(Instant i) {
    return Math.addExact(Math.multiplyExact(i.getEpochSecond(), 1_000_000L), i.getNano() / 1_000);
  }

  public static Instant microsToInstant(long micros) {
    return Instant.ofEpochSecond(
        Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1_000);
  }
}
