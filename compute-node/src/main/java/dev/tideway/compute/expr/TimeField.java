package dev.tideway.compute.expr;

import java.time.LocalDate;
import java.time.temporal.IsoFields;
import java.util.Locale;

/**
 * The fields {@code extract} reads and {@code date_trunc} truncates to, with their PostgreSQL
 * spellings. Calculations work on microseconds since 1970-01-01 (the physical TIMESTAMP form).
 */
enum TimeField {
  MICROSECOND(true),
  MILLISECOND(true),
  SECOND(true),
  MINUTE(true),
  HOUR(true),
  DAY(false),
  DOW(false),
  ISODOW(false),
  DOY(false),
  WEEK(false),
  MONTH(false),
  QUARTER(false),
  YEAR(false),
  EPOCH(true);

  static final long MICROS_PER_DAY = 86_400_000_000L;

  /** True when the field is defined for TIME values (a time of day). */
  final boolean ofTime;

  TimeField(boolean ofTime) {
    this.ofTime = ofTime;
  }

  /** The field named {@code text} (case-insensitive, singular or plural); fails naming it. */
  static TimeField parse(String function, String text) {
    String s = text.trim().toLowerCase(Locale.ROOT);
    return switch (s) {
      case "microsecond", "microseconds", "us" -> MICROSECOND;
      case "millisecond", "milliseconds", "ms" -> MILLISECOND;
      case "second", "seconds", "sec", "s" -> SECOND;
      case "minute", "minutes", "min" -> MINUTE;
      case "hour", "hours", "h" -> HOUR;
      case "day", "days" -> DAY;
      case "dow" -> DOW;
      case "isodow" -> ISODOW;
      case "doy" -> DOY;
      case "week", "weeks" -> WEEK;
      case "month", "months", "mon" -> MONTH;
      case "quarter" -> QUARTER;
      case "year", "years" -> YEAR;
      case "epoch" -> EPOCH;
      default ->
          throw new IllegalArgumentException(function + ": unit '" + text + "' is not recognized");
    };
  }

  /** Digits after the point of {@link #extract}'s result. */
  int extractScale() {
    return switch (this) {
      case SECOND, EPOCH -> 6;
      case MILLISECOND -> 3;
      default -> 0;
    };
  }

  /** The field of a timestamp, scaled by {@code 10^extractScale()}. */
  long extract(long micros) {
    long tod = Math.floorMod(micros, MICROS_PER_DAY);
    return switch (this) {
      case MICROSECOND, MILLISECOND, SECOND -> tod % 60_000_000L;
      case MINUTE -> tod / 60_000_000L % 60;
      case HOUR -> tod / 3_600_000_000L;
      case EPOCH -> micros;
      case DOW -> Math.floorMod(Math.floorDiv(micros, MICROS_PER_DAY) + 4, 7);
      case ISODOW -> Math.floorMod(Math.floorDiv(micros, MICROS_PER_DAY) + 3, 7) + 1;
      default -> calendar(LocalDate.ofEpochDay(Math.floorDiv(micros, MICROS_PER_DAY)));
    };
  }

  private long calendar(LocalDate d) {
    return switch (this) {
      case DAY -> d.getDayOfMonth();
      case DOY -> d.getDayOfYear();
      case WEEK -> d.get(IsoFields.WEEK_OF_WEEK_BASED_YEAR);
      case MONTH -> d.getMonthValue();
      case QUARTER -> (d.getMonthValue() + 2) / 3;
      case YEAR -> d.getYear();
      default -> throw new IllegalStateException("not a calendar field: " + this);
    };
  }

  /** The timestamp truncated to this field ({@code date_trunc}); weeks start on Monday. */
  long truncate(long micros) {
    long day = Math.floorDiv(micros, MICROS_PER_DAY);
    return switch (this) {
      case MICROSECOND -> micros;
      case MILLISECOND -> Math.floorDiv(micros, 1_000L) * 1_000L;
      case SECOND -> Math.floorDiv(micros, 1_000_000L) * 1_000_000L;
      case MINUTE -> Math.floorDiv(micros, 60_000_000L) * 60_000_000L;
      case HOUR -> Math.floorDiv(micros, 3_600_000_000L) * 3_600_000_000L;
      case DAY -> day * MICROS_PER_DAY;
      case WEEK -> (day - Math.floorMod(day + 3, 7)) * MICROS_PER_DAY;
      case MONTH, QUARTER, YEAR -> {
        LocalDate d = LocalDate.ofEpochDay(day);
        int month =
            this == YEAR
                ? 1
                : this == QUARTER ? (d.getMonthValue() - 1) / 3 * 3 + 1 : d.getMonthValue();
        yield LocalDate.of(d.getYear(), month, 1).toEpochDay() * MICROS_PER_DAY;
      }
      default ->
          throw new IllegalArgumentException("date_trunc: unit '" + this + "' is not supported");
    };
  }
}
