package dev.tideway.storage.sst;

import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Types;

/**
 * The SST file format, version {@value #FORMAT_VERSION}: one Parquet file, rows sorted by key
 * ascending then epoch descending, columns {@code key BINARY, epoch INT64, op INT32 (0 put, 1
 * delete), value BINARY}. Footer key-value metadata (names below) carries the format version, the
 * table ids, min/max key (hex), epoch bounds, row and tombstone counts and a CRC32C over the rows
 * (key, epoch, op, value in order). Adding a footer field is compatible; changing a column or the
 * sort order needs a new format version and a reader for the old one.
 *
 * <p>Version 2 finds pages through the footer's {@link PageFences} (the last key of every {@code
 * page_fence_rows} rows) and writes no min/max statistics for the key column, so no Parquet column
 * index; version 1 files (read still) carry the key column's column index instead. Version 2 may
 * also carry {@link SegmentLasts} (the last key of each table vnode).
 */
public final class SstFormat {
  public static final int FORMAT_VERSION = 2;

  /** The oldest format version this build reads. */
  public static final int MIN_READABLE_VERSION = 1;

  public static final byte OP_PUT = 0;
  public static final byte OP_DELETE = 1;

  public static final String META_FORMAT_VERSION = "tideway.sst.format_version";
  public static final String META_TABLE_IDS = "tideway.sst.table_ids";
  public static final String META_MIN_KEY = "tideway.sst.min_key";
  public static final String META_MAX_KEY = "tideway.sst.max_key";
  public static final String META_MIN_EPOCH = "tideway.sst.min_epoch";
  public static final String META_MAX_EPOCH = "tideway.sst.max_epoch";
  public static final String META_ROW_COUNT = "tideway.sst.row_count";
  public static final String META_TOMBSTONES = "tideway.sst.tombstone_count";
  public static final String META_ROWS_CRC32C = "tideway.sst.rows_crc32c";
  public static final String META_PAGE_FENCE_ROWS = "tideway.sst.page_fence_rows";
  public static final String META_PAGE_FENCES = "tideway.sst.page_fences";
  public static final String META_SEGMENT_LASTS = "tideway.sst.segment_lasts";

  public static final MessageType SCHEMA =
      Types.buildMessage()
          .required(PrimitiveTypeName.BINARY)
          .named("key")
          .required(PrimitiveTypeName.INT64)
          .named("epoch")
          .required(PrimitiveTypeName.INT32)
          .named("op")
          .required(PrimitiveTypeName.BINARY)
          .named("value")
          .named("tideway_sst");

  private SstFormat() {}

  /** Parses the hex written for min/max key. */
  static byte[] unhex(String s) {
    byte[] b = new byte[s.length() / 2];
    for (int i = 0; i < b.length; i++) {
      b[i] = (byte) Integer.parseInt(s.substring(2 * i, 2 * i + 2), 16);
    }
    return b;
  }
}
