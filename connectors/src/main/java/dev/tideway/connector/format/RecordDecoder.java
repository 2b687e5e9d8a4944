package dev.tideway.connector.format;

/**
 * Turns one record's payload into the values of a source's payload columns, in column order, as the
 * Java values of their types ({@link dev.tideway.common.types.DataType#javaClass()}; null for SQL
 * NULL). A payload that does not fit the columns fails the record, never the source.
 *
 * <p>Implementations are confined to one thread (they may reuse parsers and buffers).
 */
public interface RecordDecoder {
  /**
   * Fills {@code out} (one slot per payload column) from {@code payload}.
   *
   * @throws MalformedRecordException naming what did not fit (the caller skips the record)
   */
  void decode(byte[] payload, Object[] out) throws MalformedRecordException;
}
