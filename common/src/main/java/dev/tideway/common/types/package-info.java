/**
 * SQL types and single values: {@link dev.tideway.common.types.DataType} (a {@link
 * dev.tideway.common.types.TypeId} with fixed persisted byte codes, plus DECIMAL precision/scale),
 * the Java value class of each type, {@link dev.tideway.common.types.Datums} for SQL ordering and
 * the PostgreSQL text form, and {@link dev.tideway.common.types.Temporals} for the physical form of
 * temporal values (days and microseconds).
 *
 * <p>Invariant: SQL order here is the oracle the memcomparable key encoding is tested against.
 */
package dev.tideway.common.types;
