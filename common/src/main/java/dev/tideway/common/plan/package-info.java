/**
 * The stream plan: immutable records the planner emits and compute nodes build executors from.
 *
 * <p>Flow: the frontend's planner builds a tree of {@link dev.tideway.common.plan.StreamPlanNode}s
 * (each wrapping one {@link dev.tideway.common.plan.StreamNode} body, e.g. {@code HashAgg}), with
 * {@link dev.tideway.common.plan.ExprNode} expressions, {@link dev.tideway.common.plan.AggCall}s
 * and the {@link dev.tideway.common.plan.TableDesc}s of the state tables each stateful operator
 * owns. The fragmenter cuts the tree at {@code Exchange} nodes into a {@link
 * dev.tideway.common.plan.StreamFragmentGraph}; meta persists it and ships fragments to compute
 * nodes, where each node body maps to one executor.
 *
 * <p>Modelled on RisingWave's {@code stream_plan.proto} and {@code expr.proto}, much smaller. Every
 * record validates in its canonical constructor (so a record decoded from the wire is as valid as
 * one built in code), copies its lists with {@code List.copyOf}, and every enum has fixed byte
 * codes used on the wire (never reuse or renumber one).
 */
package dev.tideway.common.plan;
