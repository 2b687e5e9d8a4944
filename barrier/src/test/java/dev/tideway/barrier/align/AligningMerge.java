package dev.tideway.barrier.align;

import dev.tideway.barrier.executor.Executor;
import dev.tideway.barrier.executor.ExecutorInfo;
import dev.tideway.barrier.message.Message;
import dev.tideway.common.check.Checks;
import dev.tideway.common.types.Schema;
import java.util.List;

/**
 * A test executor: a merge of several inputs with the same schema that polls unblocked inputs
 * round-robin, passes data through and emits each barrier once, when aligned, so a test can drive
 * {@link BarrierAligner} under a merge loop. Inputs are assumed non-blocking here (a null from an
 * input means "nothing now / ended"); the actor runtime's channel-based merge (compute-node) uses
 * the same {@link BarrierAligner}.
 *
 * <p>Confined to the test's thread.
 */
final class AligningMerge implements Executor {
  private final List<Executor> inputs;
  private final ExecutorInfo info;
  private final BarrierAligner aligner;
  private int nextInput;

  AligningMerge(ExecutorInfo info, List<Executor> inputs) {
    Checks.checkArgument(!inputs.isEmpty(), "%s: merge needs inputs", info);
    Schema s = inputs.get(0).schema();
    for (Executor e : inputs) {
      Checks.checkArgument(
          e.schema().types().equals(s.types()),
          "%s: input %s has schema %s, expected %s",
          info,
          e.info(),
          e.schema().types(),
          s.types());
    }
    this.inputs = List.copyOf(inputs);
    this.info = info;
    this.aligner = new BarrierAligner(info.toString(), inputs.size());
  }

  @Override
  public Schema schema() {
    return inputs.get(0).schema();
  }

  @Override
  public ExecutorInfo info() {
    return info;
  }

  @Override
  public Message next() {
    int idle = 0;
    while (idle < inputs.size()) {
      int i = nextInput;
      nextInput = (nextInput + 1) % inputs.size();
      if (aligner.isBlocked(i)) {
        idle++;
        continue;
      }
      Message m = inputs.get(i).next();
      if (m == null) {
        idle++;
        continue;
      }
      idle = 0;
      Message out = aligner.onMessage(i, m);
      if (out != null) {
        return out;
      }
    }
    return null;
  }
}
