package dev.tideway.common.plan;

import dev.tideway.common.check.Checks;
import dev.tideway.common.types.Schema;
import java.util.List;

/**
 * One operator of a stream plan: a {@link StreamNode} body with its id, its inputs and the schema
 * it emits. A plan is a tree of these rooted at the operator that produces the job's result (a
 * {@code Materialize}); the fragmenter cuts it at {@code Exchange} nodes.
 *
 * <p>Invariants (checked here): the number of inputs matches the body, and the body's parameters
 * fit the inputs' schemas and the output schema ({@link StreamNode#checkSchemas}). Because inputs
 * are checked when built, a whole tree is valid once its root is.
 *
 * @param operatorId unique within a job, {@code >= 0}; names the operator in logs and metrics
 * @param node the operator body
 * @param inputs the input operators (left before right for joins)
 * @param outputSchema the columns this operator emits
 */
public record StreamPlanNode(
    int operatorId, StreamNode node, List<StreamPlanNode> inputs, Schema outputSchema) {
  public StreamPlanNode {
    Checks.checkArgument(operatorId >= 0, "operator id must be >= 0, got %s", operatorId);
    Checks.checkNotNull(node, "operator " + operatorId + " body");
    Checks.checkNotNull(outputSchema, "operator " + operatorId + " output schema");
    inputs = List.copyOf(inputs);
    Checks.checkArgument(
        inputs.size() == node.inputCount(),
        "operator %s (%s) takes %s inputs, got %s",
        operatorId,
        node.kindName(),
        node.inputCount(),
        inputs.size());
    try {
      node.checkSchemas(inputs.stream().map(StreamPlanNode::outputSchema).toList(), outputSchema);
    } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
      throw new IllegalArgumentException(
          "operator " + operatorId + " (" + node.kindName() + "): " + e.getMessage(), e);
    }
  }

  /** A leaf operator. */
  public static StreamPlanNode leaf(int operatorId, StreamNode node, Schema outputSchema) {
    return new StreamPlanNode(operatorId, node, List.of(), outputSchema);
  }

  /** An operator with one input. */
  public static StreamPlanNode unary(
      int operatorId, StreamNode node, StreamPlanNode input, Schema outputSchema) {
    return new StreamPlanNode(operatorId, node, List.of(input), outputSchema);
  }
}
