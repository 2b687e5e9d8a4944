package dev.tideway.frontend.sql;

import dev.tideway.frontend.pgwire.PgException;
import java.math.BigDecimal;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * PostgreSQL's interval literal {@code INTERVAL '1 hour'} (units inside the string, as RisingWave's
 * {@code TUMBLE(t, ts, INTERVAL '2 minutes')} is written) to Calcite's SQL-standard form ({@code
 * INTERVAL '1' HOUR(10)}, or {@code INTERVAL 'd hh:mm:ss.ffffff' DAY(9) TO SECOND(6)} for several
 * day-time parts, {@code INTERVAL 'y-m' YEAR(9) TO MONTH} for years and months). Accepts numbers
 * with units (singular, plural and PostgreSQL's abbreviations, {@code week} as 7 days, {@code
 * millisecond}/{@code microsecond}) and an {@code hh:mm[:ss[.f]]} part. An interval mixing months
 * with days or less is refused: Calcite has no such type. Stateless.
 */
final class PgIntervals {
  private static final Pattern PART =
      Pattern.compile(
          "\\s*(?:([+-]?\\d+(?:\\.\\d+)?)\\s*([a-zA-Z]+)|([+-]?)(\\d+):(\\d{1,2})(?::(\\d{1,2}(?:\\.\\d+)?))?)");

  private static final long MICROS_PER_SECOND = 1_000_000L;

  /** Unit word → micros (day-time) or, negated, months (year-month). */
  private static final Map<String, Long> UNITS =
      Map.ofEntries(
          Map.entry("microsecond", 1L),
          Map.entry("us", 1L),
          Map.entry("millisecond", 1_000L),
          Map.entry("ms", 1_000L),
          Map.entry("second", MICROS_PER_SECOND),
          Map.entry("sec", MICROS_PER_SECOND),
          Map.entry("s", MICROS_PER_SECOND),
          Map.entry("minute", 60 * MICROS_PER_SECOND),
          Map.entry("min", 60 * MICROS_PER_SECOND),
          Map.entry("m", 60 * MICROS_PER_SECOND),
          Map.entry("hour", 3600 * MICROS_PER_SECOND),
          Map.entry("hr", 3600 * MICROS_PER_SECOND),
          Map.entry("h", 3600 * MICROS_PER_SECOND),
          Map.entry("day", 86_400 * MICROS_PER_SECOND),
          Map.entry("d", 86_400 * MICROS_PER_SECOND),
          Map.entry("week", 7 * 86_400 * MICROS_PER_SECOND),
          Map.entry("w", 7 * 86_400 * MICROS_PER_SECOND),
          Map.entry("month", -1L),
          Map.entry("mon", -1L),
          Map.entry("year", -12L),
          Map.entry("yr", -12L),
          Map.entry("y", -12L));

  private PgIntervals() {}

  /** The Calcite form of the interval whose string (without quotes) is {@code text}. */
  static String toCalcite(String text) {
    BigDecimal micros = BigDecimal.ZERO;
    long months = 0;
    int parts = 0;
    String singleUnit = null;
    BigDecimal singleValue = null;
    Matcher m = PART.matcher(text);
    int at = 0;
    while (at < text.length() && !text.substring(at).isBlank()) {
      if (!m.find(at) || m.start() != at) {
        throw invalid(text);
      }
      at = m.end();
      parts++;
      if (m.group(1) != null) {
        BigDecimal v = new BigDecimal(m.group(1));
        String unit = unit(m.group(2), text);
        long scale = UNITS.get(unit);
        if (scale < 0) {
          requireWhole(v, text);
          months += v.longValueExact() * -scale;
        } else {
          micros = micros.add(v.multiply(BigDecimal.valueOf(scale)));
        }
        singleUnit = unit;
        singleValue = v;
      } else {
        BigDecimal secs = m.group(6) == null ? BigDecimal.ZERO : new BigDecimal(m.group(6));
        BigDecimal t =
            BigDecimal.valueOf(Long.parseLong(m.group(4)) * 3600 + Long.parseLong(m.group(5)) * 60)
                .add(secs)
                .multiply(BigDecimal.valueOf(MICROS_PER_SECOND));
        micros = micros.add("-".equals(m.group(3)) ? t.negate() : t);
        singleUnit = null;
      }
    }
    if (parts == 0) {
      throw invalid(text);
    }
    if (months != 0 && micros.signum() != 0) {
      throw PgException.error(
          "0A000",
          "interval '"
              + text
              + "' mixes months or years with days or less, which is not supported; write two"
              + " intervals");
    }
    if (parts == 1 && singleUnit != null) {
      return single(singleValue, singleUnit, text);
    }
    return months != 0 ? yearMonth(months) : dayTime(micros, text);
  }

  private static String unit(String word, String text) {
    String w = word.toLowerCase(Locale.ROOT);
    if (UNITS.containsKey(w)) {
      return w;
    }
    for (String suffix : new String[] {"s", "es"}) {
      if (w.endsWith(suffix) && UNITS.containsKey(w.substring(0, w.length() - suffix.length()))) {
        return w.substring(0, w.length() - suffix.length());
      }
    }
    throw PgException.error(
        "22007", "invalid input syntax for type interval: \"" + text + "\" (unit " + word + ")");
  }

  /** Calcite's qualifier for one whole-valued part of a unit ({@code second}: any value). */
  private static final Map<String, String> QUALIFIERS =
      Map.of(
          "month", "MONTH(9)",
          "year", "YEAR(9)",
          "minute", "MINUTE(10)",
          "hour", "HOUR(10)",
          "day", "DAY(9)",
          "second", "SECOND(10, 6)");

  /** One part: {@code INTERVAL '5' MINUTE(10)} when Calcite has the unit, else day-to-second. */
  private static String single(BigDecimal v, String unit, String text) {
    String qualifier = QUALIFIERS.get(canonical(unit));
    boolean integral = v.stripTrailingZeros().scale() <= 0;
    if (qualifier != null && (integral || qualifier.startsWith("SECOND"))) {
      return "INTERVAL '" + v.toPlainString() + "' " + qualifier;
    }
    return dayTime(v.multiply(BigDecimal.valueOf(UNITS.get(unit))), text);
  }

  /** The full unit name of an abbreviation with the same scale ({@code hr} → {@code hour}). */
  private static String canonical(String unit) {
    long scale = UNITS.get(unit);
    for (String full : QUALIFIERS.keySet()) {
      if (UNITS.get(full) == scale) {
        return full;
      }
    }
    return unit;
  }

  private static String yearMonth(long months) {
    String sign = months < 0 ? "-" : "";
    long a = Math.abs(months);
    return "INTERVAL '" + sign + a / 12 + "-" + a % 12 + "' YEAR(9) TO MONTH";
  }

  private static String dayTime(BigDecimal micros, String text) {
    BigDecimal whole = micros.setScale(0, java.math.RoundingMode.HALF_EVEN);
    long us;
    try {
      us = whole.longValueExact();
    } catch (ArithmeticException e) {
      throw PgException.error("22008", "interval out of range: \"" + text + "\"");
    }
    String sign = us < 0 ? "-" : "";
    long a = Math.abs(us);
    long days = a / (86_400 * MICROS_PER_SECOND);
    long rest = a % (86_400 * MICROS_PER_SECOND);
    long h = rest / (3600 * MICROS_PER_SECOND);
    rest %= 3600 * MICROS_PER_SECOND;
    long min = rest / (60 * MICROS_PER_SECOND);
    rest %= 60 * MICROS_PER_SECOND;
    return String.format(
        Locale.ROOT,
        "INTERVAL '%s%d %02d:%02d:%02d.%06d' DAY(9) TO SECOND(6)",
        sign,
        days,
        h,
        min,
        rest / MICROS_PER_SECOND,
        rest % MICROS_PER_SECOND);
  }

  private static PgException invalid(String text) {
    return PgException.error("22007", "invalid input syntax for type interval: \"" + text + "\"");
  }

  private static void requireWhole(BigDecimal v, String text) {
    if (v.stripTrailingZeros().scale() > 0) {
      throw PgException.error(
          "0A000", "fractional months or years in interval '" + text + "' are not supported");
    }
  }
}
