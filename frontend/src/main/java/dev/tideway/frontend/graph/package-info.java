/**
 * The fragment graph a planned job becomes: {@link Fragmenter} cuts a plan at its exchanges into a
 * {@link dev.tideway.common.plan.StreamFragmentGraph} (edges keep the dispatcher kind and keys, the
 * downstream side reads through a {@link dev.tideway.common.plan.StreamNode.Merge}); {@link
 * PlanPrinter} renders plans and graphs for EXPLAIN.
 */
package dev.tideway.frontend.graph;
