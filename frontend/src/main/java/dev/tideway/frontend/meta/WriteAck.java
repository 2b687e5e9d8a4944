package dev.tideway.frontend.meta;

/**
 * A compute node's acknowledgement of a share of one write: its rows joined {@code epoch} in
 * recovery generation {@code generation}. They are durable once a checkpoint at or above that epoch
 * commits in that generation; a recovery that starts a later generation first throws them away
 * ({@link MetaClient#lostWrites}).
 *
 * @param tableId the table written
 * @param rows the rows of this share
 */
public record WriteAck(int tableId, long rows, long generation, long epoch) {}
