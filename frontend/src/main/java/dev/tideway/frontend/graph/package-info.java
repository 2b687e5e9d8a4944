/**
 * The stream graph a planned job becomes: {@link Fragmenter} cuts a plan at its exchanges into
 * {@link StreamGraph.Fragment}s (the upstream side keeps the dispatcher kind and keys, the
 * downstream side reads through a {@link dev.tideway.common.plan.StreamNode.Merge}); {@link
 * PlanPrinter} renders plans and graphs for EXPLAIN.
 */
package dev.tideway.frontend.graph;
