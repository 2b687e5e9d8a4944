/**
 * Rows and their value encoding. {@link dev.tideway.common.row.Row} is the boxed, immutable form
 * of a row used at the edges; {@link dev.tideway.common.row.ValueSerde} is the compact, versioned
 * byte form of a whole row stored as a state-store value (leading format byte, NULL bitmap,
 * varint lengths, little-endian fixed-width primitives); {@link
 * dev.tideway.common.row.GrowableBytes} is the reusable buffer both this encoding and the
 * memcomparable key encoding ({@code dev.tideway.common.key}) write into.
 *
 * <p>Invariant: {@code decode(encode(row)) equals row} bit for bit (floats keep -0.0 and NaN
 * payloads, decimals keep their scale), and an unknown format version fails naming the version.
 */
package dev.tideway.common.row;
