package dev.tideway.barrier.align;

import dev.tideway.barrier.message.Barrier;

/**
 * What states need from their aligner: its identity, its input count and where aligned barriers go.
 */
interface AlignerContext {
  String owner();

  int inputCount();

  /** Records that {@code barrier} is aligned and must be emitted now. */
  void emit(Barrier barrier);
}
