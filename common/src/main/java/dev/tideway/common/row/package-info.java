/**
 * Rows: {@link dev.tideway.common.row.Row}, the boxed, immutable form of a row used at the edges,
 * and {@link dev.tideway.common.row.GrowableBytes}, the reusable buffer the row encodings (the
 * memcomparable keys of {@code dev.tideway.common.key} and the values of {@code
 * dev.tideway.common.value}) write into.
 *
 * <p>This package depends on nothing but {@code check}: {@code chunk} depends on it, so the
 * encoders with chunk fast paths live in their own packages to keep the packages free of cycles.
 */
package dev.tideway.common.row;
