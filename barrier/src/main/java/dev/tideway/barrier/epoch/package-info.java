/**
 * Epochs: physical milliseconds since 2021-04-01T00:00Z shifted left 16 bits, strictly increasing.
 * Hot paths carry epochs as {@code long}s; {@link dev.tideway.barrier.epoch.Epoch} holds the
 * encoding, {@link dev.tideway.barrier.epoch.EpochPair} the {@code (curr, prev)} a barrier carries.
 */
package dev.tideway.barrier.epoch;
