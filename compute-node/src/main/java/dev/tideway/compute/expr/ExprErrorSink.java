package dev.tideway.compute.expr;

/**
 * Where a streaming job's evaluation errors go when they do not fail the job: a row whose value
 * cannot be computed (division by zero, overflow, a bad cast) gets NULL for that value and its
 * error is reported here, counted and logged by the node (RisingWave's non-strict mode).
 *
 * <p>Called on the actor thread that evaluates; implementations must be thread-safe, as one node
 * sink serves every actor.
 */
@FunctionalInterface
public interface ExprErrorSink {
  /** One row's value became NULL because evaluating it raised {@code error}. */
  void report(ExprException error);

  /** Propagates every error: the evaluation fails (batch semantics, and unit tests of kernels). */
  ExprErrorSink STRICT =
      e -> {
        throw e;
      };
}
