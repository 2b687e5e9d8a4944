/**
 * The value encoding of rows for the state store: {@link dev.tideway.common.value.ValueSerde}, a
 * compact, versioned byte form of a whole row (leading format byte, column count, NULL bitmap,
 * varint lengths, little-endian fixed-width primitives), written from a {@link
 * dev.tideway.common.row.Row} or straight from a chunk's columns and decoded with the schema.
 *
 * <p>Invariants: {@code decode(encode(row)) equals row} bit for bit (floats keep -0.0 and NaN
 * payloads, decimals keep their scale); the chunk path writes the row path's bytes; an unknown
 * format version fails naming the version. The format is persisted: add, never change.
 */
package dev.tideway.common.value;
