package dev.tideway.common.row;

/**
 * UTF-8 encoding straight into a byte array, without the intermediate array of {@link
 * String#getBytes}. Produces exactly the bytes of {@code s.getBytes(UTF_8)}: an unpaired surrogate
 * becomes {@code '?'}. Stateless.
 */
final class Utf8 {
  private Utf8() {}

  /** The number of bytes {@link #encode} writes for {@code s}. */
  static int encodedLength(String s) {
    int n = s.length();
    int len = 0;
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        len++;
      } else if (c < 0x800) {
        len += 2;
      } else if (Character.isHighSurrogate(c)
          && i + 1 < n
          && Character.isLowSurrogate(s.charAt(i + 1))) {
        len += 4;
        i++;
      } else {
        len += Character.isSurrogate(c) ? 1 : 3;
      }
    }
    return len;
  }

  /**
   * Writes {@code s} at {@code p} (room for {@code 3 * s.length()} bytes must exist); returns the
   * position after the last byte.
   */
  static int encode(String s, byte[] b, int p) {
    int n = s.length();
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        b[p++] = (byte) c;
      } else if (c < 0x800) {
        b[p++] = (byte) (0xC0 | (c >> 6));
        b[p++] = (byte) (0x80 | (c & 0x3F));
      } else if (Character.isSurrogate(c)) {
        if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
          int cp = Character.toCodePoint(c, s.charAt(++i));
          b[p++] = (byte) (0xF0 | (cp >> 18));
          b[p++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
          b[p++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
          b[p++] = (byte) (0x80 | (cp & 0x3F));
        } else {
          b[p++] = '?';
        }
      } else {
        b[p++] = (byte) (0xE0 | (c >> 12));
        b[p++] = (byte) (0x80 | ((c >> 6) & 0x3F));
        b[p++] = (byte) (0x80 | (c & 0x3F));
      }
    }
    return p;
  }
}
