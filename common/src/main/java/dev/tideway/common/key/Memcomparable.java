package dev.tideway.common.key;

import dev.tideway.common.check.Checks;
import dev.tideway.common.row.GrowableBytes;
import dev.tideway.common.types.Datums;
import dev.tideway.common.types.Interval;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;

/**
 * The per-type byte layouts of the memcomparable format (see {@code package-info.java}); {@link
 * KeySerde} adds the NULL tags and picks the layout per column. Every writer appends ascending
 * bytes; the caller inverts them for {@code DESC}. Readers take a {@code mask} (0 ascending, 0xFF
 * descending) that undoes the inversion as they read.
 *
 * <p>Stateless; safe from any thread.
 */
final class Memcomparable {
  /** Escapes a 0x00 content byte of VARCHAR/BYTEA: {@code 00 FF}. */
  static final int ESCAPED_ZERO = 0xFF;

  /** Second byte of the VARCHAR/BYTEA terminator {@code 00 01}. */
  static final int TERMINATOR = 0x01;

  static final int DECIMAL_NEGATIVE = 0x01;
  static final int DECIMAL_ZERO = 0x02;
  static final int DECIMAL_POSITIVE = 0x03;

  /** Ends the base-100 digit pairs of a DECIMAL; pairs are written as 1..100. */
  static final int DECIMAL_DIGITS_END = 0x00;

  private Memcomparable() {}

  /** IEEE trick: sign bit flipped for positives, all bits flipped for negatives. */
  static int floatKey(float f) {
    int bits = Float.floatToIntBits(Datums.normalize(f));
    return bits ^ ((bits >> 31) | Integer.MIN_VALUE);
  }

  static float floatFromKey(int key) {
    int bits = key ^ ((~key >> 31) | Integer.MIN_VALUE);
    return Float.intBitsToFloat(bits);
  }

  static long doubleKey(double d) {
    long bits = Double.doubleToLongBits(Datums.normalize(d));
    return bits ^ ((bits >> 63) | Long.MIN_VALUE);
  }

  static double doubleFromKey(long key) {
    long bits = key ^ ((~key >> 63) | Long.MIN_VALUE);
    return Double.longBitsToDouble(bits);
  }

  /**
   * Writes {@code s} as its UTF-8 bytes ({@link String#getBytes}: the bytes {@link Datums#compare}
   * orders by; unpaired surrogates become {@code ?}), escaped and terminated like {@link
   * #writeBytes}. {@code getBytes} is a JDK intrinsic for ASCII and Latin-1 strings, which made it
   * faster than encoding char by char into the buffer despite the temporary array.
   */
  static void writeString(GrowableBytes out, String s) {
    writeBytes(out, s.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * Writes {@code bytes} with each 0x00 escaped as {@code 00 FF}, then the terminator {@code 00
   * 01}: prefix-free, and order-preserving since the escape sorts above the terminator.
   */
  static void writeBytes(GrowableBytes out, byte[] bytes) {
    int zeros = 0;
    for (byte x : bytes) {
      zeros += x == 0 ? 1 : 0;
    }
    out.ensureRemaining(bytes.length + zeros + 2);
    byte[] b = out.array();
    int p = out.size();
    if (zeros == 0) {
      System.arraycopy(bytes, 0, b, p, bytes.length);
      p += bytes.length;
    } else {
      for (byte x : bytes) {
        b[p++] = x;
        if (x == 0) {
          b[p++] = (byte) ESCAPED_ZERO;
        }
      }
    }
    b[p++] = 0;
    b[p++] = TERMINATOR;
    out.advanceTo(p);
  }

  /**
   * Finds the end of an escaped, terminated byte string starting at {@code pos}: returns the
   * unescaped content length in the low 32 bits and the position after the terminator in the high
   * 32 bits. Fails on a malformed escape.
   */
  static long scanEscaped(byte[] b, int pos, int mask) {
    int len = 0;
    int p = pos;
    while (true) {
      int x = (b[p++] ^ mask) & 0xFF;
      if (x != 0) {
        len++;
        continue;
      }
      int next = (b[p++] ^ mask) & 0xFF;
      if (next == TERMINATOR) {
        return ((long) p << 32) | len;
      }
      if (next != ESCAPED_ZERO) {
        Checks.checkArgument(
            false, "corrupt key: byte 0x%02x after 0x00 at offset %s", next, p - 1);
      }
      len++;
    }
  }

  /** Unescapes {@code len} content bytes starting at {@code pos} into a new array. */
  static byte[] readEscaped(byte[] b, int pos, int len, int mask) {
    byte[] out = new byte[len];
    int p = pos;
    for (int i = 0; i < len; i++) {
      byte x = (byte) (b[p++] ^ mask);
      out[i] = x;
      if (x == 0) {
        p++; // skip the escape byte
      }
    }
    return out;
  }

  /** Decodes a VARCHAR; returns the string and stores the next position in {@code next[0]}. */
  static String readString(byte[] b, int pos, int mask, int[] next) {
    long scan = scanEscaped(b, pos, mask);
    int len = (int) scan;
    int end = (int) (scan >>> 32);
    next[0] = end;
    if (mask == 0 && end - pos - 2 == len) { // ascending and no escapes: decode in place
      return new String(b, pos, len, StandardCharsets.UTF_8);
    }
    return new String(readEscaped(b, pos, len, mask), StandardCharsets.UTF_8);
  }

  /**
   * DECIMAL: a sign byte (negative, zero, positive); for non-zero values the decimal exponent
   * {@code e} with {@code |v| = 0.d1d2...dn × 10^e} (4 bytes, sign flipped) and the significant
   * digits without trailing zeros, two per byte as {@code 1 + 10·d_i + d_(i+1)}, ended by 0x00.
   * Negative values invert everything after the sign byte.
   */
  static void writeDecimal(GrowableBytes out, BigDecimal v) {
    int signum = v.signum();
    if (signum == 0) {
      out.put(DECIMAL_ZERO);
      return;
    }
    BigDecimal stripped = v.stripTrailingZeros();
    BigInteger unscaled = stripped.unscaledValue();
    String digits =
        unscaled.bitLength() < 63
            ? Long.toString(Math.abs(unscaled.longValue()))
            : unscaled.abs().toString();
    long exponent = (long) digits.length() - stripped.scale();
    if (exponent != (int) exponent) {
      Checks.checkArgument(false, "DECIMAL %s has an exponent outside the key format's range", v);
    }
    int start = out.size();
    out.put(signum > 0 ? DECIMAL_POSITIVE : DECIMAL_NEGATIVE);
    out.putIntBE((int) exponent ^ Integer.MIN_VALUE);
    int n = digits.length();
    out.ensureRemaining(n / 2 + 2);
    for (int i = 0; i < n; i += 2) {
      int hi = digits.charAt(i) - '0';
      int lo = i + 1 < n ? digits.charAt(i + 1) - '0' : 0;
      out.put(1 + hi * 10 + lo);
    }
    out.put(DECIMAL_DIGITS_END);
    if (signum < 0) {
      out.invertFrom(start + 1);
    }
  }

  /** Decodes a DECIMAL written by {@link #writeDecimal}; next position in {@code next[0]}. */
  static BigDecimal readDecimal(byte[] b, int pos, int mask, int[] next) {
    int sign = (b[pos] ^ mask) & 0xFF;
    if (sign == DECIMAL_ZERO) {
      next[0] = pos + 1;
      return BigDecimal.ZERO;
    }
    if (sign != DECIMAL_POSITIVE && sign != DECIMAL_NEGATIVE) {
      Checks.checkArgument(false, "corrupt key: DECIMAL sign byte 0x%02x at offset %s", sign, pos);
    }
    int m = sign == DECIMAL_NEGATIVE ? mask ^ 0xFF : mask;
    int exponent = GrowableBytes.getIntBE(b, pos + 1) ^ (m == 0 ? 0 : -1) ^ Integer.MIN_VALUE;
    int p = pos + 5;
    StringBuilder digits = new StringBuilder();
    while (true) {
      int pair = (b[p++] ^ m) & 0xFF;
      if (pair == DECIMAL_DIGITS_END) {
        break;
      }
      if (pair > 100) {
        Checks.checkArgument(false, "corrupt key: DECIMAL digit pair %s at offset %s", pair, p - 1);
      }
      digits.append((char) ('0' + (pair - 1) / 10)).append((char) ('0' + (pair - 1) % 10));
    }
    next[0] = p;
    int n = digits.length();
    if (n > 0 && digits.charAt(n - 1) == '0') {
      digits.setLength(--n); // the pad of an odd digit count
    }
    if (n == 0) {
      Checks.checkArgument(false, "corrupt key: DECIMAL without digits at offset %s", pos);
    }
    BigInteger unscaled = new BigInteger(digits.toString());
    long scale = (long) n - exponent;
    if (scale != (int) scale) {
      Checks.checkArgument(false, "corrupt key: DECIMAL scale %s out of range", scale);
    }
    BigDecimal v = new BigDecimal(unscaled, (int) scale);
    return sign == DECIMAL_NEGATIVE ? v.negate() : v;
  }

  /** INTERVAL's key length: total µs as a 16-bit high and 64-bit low word, then the fields. */
  static final int INTERVAL_BYTES = 2 + 8 + 4 + 4 + 8;

  /**
   * INTERVAL in {@link Interval#compareTo} order: the exact 128-bit total length in µs (months × 30
   * days + days + µs; its high word always fits 16 bits since |total| < 2^75), then months, days
   * and µs to break ties between equal lengths.
   */
  static void writeInterval(GrowableBytes out, int months, int days, long micros) {
    long dayCount = (long) months * 30 + days;
    long hi = Math.multiplyHigh(dayCount, Interval.MICROS_PER_DAY);
    long lo = dayCount * Interval.MICROS_PER_DAY;
    long sumLo = lo + micros;
    long carry = Long.compareUnsigned(sumLo, lo) < 0 ? 1 : 0;
    long sumHi = hi + (micros < 0 ? -1 : 0) + carry;
    if (sumHi != (short) sumHi) {
      Checks.checkState(false, "interval total high word %s exceeds 16 bits", sumHi);
    }
    out.ensureRemaining(INTERVAL_BYTES);
    out.putShortBE((short) (sumHi ^ 0x8000));
    out.putLongBE(sumLo);
    out.putIntBE(months ^ Integer.MIN_VALUE);
    out.putIntBE(days ^ Integer.MIN_VALUE);
    out.putLongBE(micros ^ Long.MIN_VALUE);
  }

  static Interval readInterval(byte[] b, int pos, int mask) {
    int im = mask == 0 ? 0 : -1;
    int months = GrowableBytes.getIntBE(b, pos + 10) ^ im ^ Integer.MIN_VALUE;
    int days = GrowableBytes.getIntBE(b, pos + 14) ^ im ^ Integer.MIN_VALUE;
    long micros = GrowableBytes.getLongBE(b, pos + 18) ^ im ^ Long.MIN_VALUE;
    return new Interval(months, days, micros);
  }
}
