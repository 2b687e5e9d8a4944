/**
 * Expressions over chunks: {@link dev.tideway.compute.expr.ExprCompiler} turns a planner's {@link
 * dev.tideway.common.plan.ExprNode} tree into an {@link dev.tideway.compute.expr.Expression} that
 * evaluates one column per call over a whole {@link dev.tideway.common.chunk.StreamChunk}.
 *
 * <p>Flow: (1) {@code ExprCompiler.compile(node, inputTypes)} checks types and inserts implicit
 * casts; (2) an executor calls {@code eval(chunk)} once per chunk; (3) each node evaluates its
 * children over the rows still selected (hidden rows, rows a CASE branch does not take, rows an AND
 * already decided) and computes its own column in a loop over primitive arrays.
 *
 * <p>Invariants: numeric and boolean kernels never box per row; a value computed for a row that is
 * not selected is unspecified and never raises an error; every runtime error is an {@link
 * dev.tideway.compute.expr.ExprException} naming the function, the values and their types.
 */
package dev.tideway.compute.expr;
