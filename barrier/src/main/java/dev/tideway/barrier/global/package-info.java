/**
 * The meta end of the protocol: {@link dev.tideway.barrier.global.GlobalBarrierCore} builds each
 * barrier (interval, checkpoint frequency, commands and forced checkpoints), tracks in-flight
 * epochs and the nodes that must answer, completes strictly in epoch order under a cap on in-flight
 * barriers, and hands the meta shell ordered {@link dev.tideway.barrier.global.BarrierDecision}s:
 * inject this barrier, commit this epoch with these SSTs/stats/progress, start recovery because X.
 */
package dev.tideway.barrier.global;
