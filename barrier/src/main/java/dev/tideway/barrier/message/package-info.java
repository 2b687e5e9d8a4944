/**
 * What flows between executors: {@link dev.tideway.barrier.message.Message} is a data chunk, a
 * {@link dev.tideway.barrier.message.Barrier} or a {@link dev.tideway.barrier.message.Watermark}. A
 * barrier carries an {@link dev.tideway.barrier.epoch.EpochPair}, a {@link
 * dev.tideway.barrier.message.BarrierKind} and an optional {@link
 * dev.tideway.barrier.message.Mutation}. All types are immutable values; enums carry explicit byte
 * codes for the wire.
 */
package dev.tideway.barrier.message;
