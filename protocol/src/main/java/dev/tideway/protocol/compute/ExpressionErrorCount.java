package dev.tideway.protocol.compute;

/**
 * One compute node's count of the evaluation errors of one kind in one fragment of a streaming job
 * since the node started: each error turned one row's value into NULL (the job kept running).
 *
 * @param jobId the streaming job
 * @param fragmentId the fragment whose expression failed
 * @param kind the error kind ({@code DIVISION_BY_ZERO}, {@code NUMERIC_OUT_OF_RANGE}, ...)
 * @param count errors counted
 * @param lastMessage the latest error, naming the function and the offending values
 * @param lastAtMillis when the latest error happened (wall clock, ms since the epoch)
 */
public record ExpressionErrorCount(
    int jobId, int fragmentId, String kind, long count, String lastMessage, long lastAtMillis) {

  /** The key counts of several nodes are summed under: job, fragment and kind. */
  public java.util.List<Object> key() {
    return java.util.List.of(jobId, fragmentId, kind);
  }

  /** This count and {@code other}'s (same key) summed, with the later of their last errors. */
  public ExpressionErrorCount plus(ExpressionErrorCount other) {
    ExpressionErrorCount last = lastAtMillis >= other.lastAtMillis ? this : other;
    return new ExpressionErrorCount(
        jobId, fragmentId, kind, count + other.count, last.lastMessage, last.lastAtMillis);
  }
}
