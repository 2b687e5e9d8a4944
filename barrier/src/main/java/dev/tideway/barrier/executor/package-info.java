/**
 * The executor contract ({@link dev.tideway.barrier.executor.Executor}: pull one {@link
 * dev.tideway.barrier.message.Message} at a time) and the checking wrapper the runtime puts around
 * every executor ({@link dev.tideway.barrier.executor.CheckedExecutor}): the first message is a
 * barrier, epochs rise with {@code prev == last.curr}, chunks match the schema, {@code U-} is
 * followed by {@code U+}. Each check is one small class; failures name actor, executor and values.
 */
package dev.tideway.barrier.executor;
