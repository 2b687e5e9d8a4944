/**
 * Barrier alignment for executors with several inputs (merge, join, union): a barrier is forwarded
 * only when every input delivered it, and an input that already delivered it is blocked (not
 * polled) until then. {@link dev.tideway.barrier.align.BarrierAligner} is the pure state machine,
 * one small class per alignment state; the multi-input executors that use it live in compute-node
 * (and a test merge, {@code AligningMerge}, in this module's tests).
 */
package dev.tideway.barrier.align;
