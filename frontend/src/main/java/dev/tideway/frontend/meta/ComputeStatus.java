package dev.tideway.frontend.meta;

import dev.tideway.protocol.compute.ExpressionErrorCount;
import java.util.List;

/** What the compute nodes report about the running jobs, for {@code rw_catalog}. Thread-safe. */
@FunctionalInterface
public interface ComputeStatus {
  /**
   * The evaluation errors each node's streaming actors turned into NULLs since the node started,
   * one entry per node, job, fragment and kind; nodes that do not answer in time are left out.
   */
  List<ExpressionErrorCount> expressionErrors();

  /** No compute nodes to ask (an in-memory cluster). */
  ComputeStatus NONE = List::of;
}
