/**
 * The {@link dev.tideway.compute.actor.ExecutorBuilder}s that turn plan records ({@link
 * dev.tideway.common.plan.StreamNode} bodies) into this module's executors, registered through
 * {@code META-INF/services/dev.tideway.compute.actor.ExecutorBuilder}: {@link
 * dev.tideway.compute.executor.build.SourceBuilder} (datagen and nexmark sources over the actor's
 * splits), {@link dev.tideway.compute.executor.build.StatelessBuilder} (Project, Filter,
 * TumbleWindow, HopWindow) and {@link dev.tideway.compute.executor.build.StatefulBuilder} (HashAgg,
 * HashJoin, Materialize; state tables opened through {@code StateTables} on the context's state
 * store) and {@link dev.tideway.compute.executor.build.DmlBuilder} (a table's {@code Dml} leaf,
 * registering its channel in the node's {@code DmlChannels}).
 *
 * <p>Depends on {@code compute.actor} and {@code compute.executor}; neither depends on this
 * package. Builders are stateless and thread-safe; the executors they return are confined to the
 * actor thread.
 */
package dev.tideway.compute.executor.build;
