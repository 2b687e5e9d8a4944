/**
 * Planning a materialized view: {@link LogicalPlanner} validates the query with Calcite and
 * simplifies the logical tree; {@link StreamPlanBuilder} turns it into {@link
 * dev.tideway.common.plan.StreamPlanNode}s (scans, project, filter, hash aggregation, hash join,
 * tumble/hop windows) with an exchange wherever the hash distribution changes and a Materialize at
 * the root keyed by the stream key; {@link PlanPrinter} renders it for EXPLAIN.
 */
package dev.tideway.frontend.plan;
