/**
 * Memcomparable key encoding: keys whose unsigned lexicographic byte order equals their SQL order,
 * so the state store can sort, seek and range-scan raw bytes. Storage keys are {@code table_id(4) |
 * vnode(2) | memcomparable(pk)}; {@link dev.tideway.common.key.KeySerde} writes the last part.
 *
 * <p>The format is persisted: {@link dev.tideway.common.key.KeySerde#FORMAT_VERSION} (1) names it.
 * Keys carry no version byte (it would cost a byte per key and break prefix sharing); the table
 * catalog records the version its keys use. Changing any byte below is a format change.
 *
 * <p><b>Format version 1.</b>
 *
 * <p>A key is the concatenation of its columns. Each column is a tag byte, then (for non-NULL) the
 * value bytes:
 *
 * <pre>
 * tag      0x00 NULL (column is NULLS FIRST) | 0x01 value follows | 0x02 NULL (NULLS LAST)
 *          The tag is never inverted, so NULL placement is independent of direction.
 * value    ascending layout below; a DESC column writes the bitwise inversion (~b) of every
 *          value byte, terminators included.
 *
 * BOOLEAN      1 byte: 0x00 false, 0x01 true
 * SMALLINT     2 bytes big-endian, sign bit flipped (v ^ 0x8000)
 * INT          4 bytes big-endian, sign bit flipped
 * DATE         as INT, of the days since 1970-01-01
 * BIGINT       8 bytes big-endian, sign bit flipped
 * TIME, TIMESTAMP, TIMESTAMPTZ   as BIGINT, of the µs (of the day / since 1970-01-01T00:00 UTC)
 * REAL         the IEEE bits of the value after normalisation (-0.0 → 0.0, every NaN → the
 *              canonical NaN), 4 bytes big-endian; positives get the sign bit flipped, negatives
 *              all bits flipped. Order: -Inf < negatives < 0 < positives < +Inf < NaN.
 * DOUBLE       as REAL, 8 bytes
 * VARCHAR      UTF-8 bytes (unpaired surrogates as '?', like String.getBytes), each 0x00 written
 * BYTEA        as 0x00 0xFF, then the terminator 0x00 0x01; prefix-free, so "a" &lt; "a\0" &lt; "ab"
 *              holds and a following column can never be mistaken for content
 * DECIMAL      sign byte 0x01 negative | 0x02 zero (nothing follows) | 0x03 positive; then, with
 *              |v| = 0.d1d2…dn × 10^e (d1 ≠ 0, dn ≠ 0: trailing zeros dropped, so 1.0 and 1.00
 *              encode alike), e as 4 bytes big-endian sign-flipped, then the digits two per byte
 *              as 1 + 10·d(i) + d(i+1) (an odd last digit is padded with 0), then 0x00.
 *              Negative values invert every byte after the sign byte.
 * INTERVAL     26 bytes in Interval.compareTo order: the exact total length in µs (months × 30
 *              days + days + µs) as a 128-bit number whose high word fits 16 bits (2 bytes,
 *              sign-flipped) and low word (8 bytes, unsigned), then months (4), days (4) and µs
 *              (8), each big-endian sign-flipped, so "1 mon" and "30 days" differ but sort as
 *              PostgreSQL breaks the tie.
 * </pre>
 *
 * <p>Every column encoding is prefix-free, so multi-column keys compare column by column and the
 * encoding of a key prefix ({@link dev.tideway.common.key.KeySerde#encodePrefixTo}) is a byte
 * prefix of every key that starts with it. Decoding needs the column types and orders; DECIMAL
 * comes back at the column's scale when it has one.
 */
package dev.tideway.common.key;
