package dev.tideway.compute.exchange;

import dev.tideway.barrier.align.BarrierAligner;
import dev.tideway.barrier.executor.Executor;
import dev.tideway.barrier.executor.ExecutorInfo;
import dev.tideway.barrier.message.Message;
import dev.tideway.common.check.Checks;
import dev.tideway.common.types.Schema;
import java.util.List;

/**
 * The leaf of an actor whose fragment reads from another fragment: merges the channels from every
 * upstream actor and aligns barriers with the barrier module's {@link BarrierAligner}. Inputs are
 * polled round-robin; an input that delivered the pending barrier is not polled until the others
 * did, so its channel fills and its producer blocks (alignment back-pressures the fast side). When
 * a full round finds nothing, the merge waits on its {@link Doorbell}.
 *
 * <p>Confined to the actor thread.
 */
public final class MergeExecutor implements Executor {
  /** Upper bound on one wait, so a lost ring can at worst cost this much latency. */
  private static final long WAIT_MS = 50;

  private final ExecutorInfo info;
  private final Schema schema;
  private final List<InputChannel> inputs;
  private final BarrierAligner aligner;
  private final Doorbell doorbell = new Doorbell();
  private int nextInput;

  public MergeExecutor(ExecutorInfo info, Schema schema, List<InputChannel> inputs) {
    Checks.checkArgument(!inputs.isEmpty(), "%s: merge without input channels", info);
    this.info = info;
    this.schema = schema;
    this.inputs = List.copyOf(inputs);
    this.aligner = new BarrierAligner(info.toString(), inputs.size());
    for (InputChannel in : this.inputs) {
      in.attach(doorbell);
    }
  }

  @Override
  public Schema schema() {
    return schema;
  }

  @Override
  public ExecutorInfo info() {
    return info;
  }

  /** True while some inputs delivered a barrier the others have not. */
  public boolean isAligning() {
    return aligner.isAligning();
  }

  @Override
  public Message next() {
    while (true) {
      boolean found = false;
      for (int polled = 0; polled < inputs.size(); polled++) {
        int i = nextInput;
        nextInput = (nextInput + 1) % inputs.size();
        if (aligner.isBlocked(i)) {
          continue;
        }
        Message m = inputs.get(i).poll();
        if (m == null) {
          continue;
        }
        found = true;
        Message out = aligner.onMessage(i, m);
        if (out != null) {
          return out;
        }
      }
      if (!found) {
        doorbell.await(WAIT_MS);
      }
    }
  }
}
