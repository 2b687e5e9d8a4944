package dev.tideway.storage.sst;

import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * Parquet settings of an SST (measured choices: ZSTD, 16 MB row groups, 256-row aligned pages so a
 * point get decodes one small block, key bloom filter sized for one row group at FPP 0.01).
 */
public record SstWriterOptions(
    CompressionCodecName codec,
    long rowGroupBytes,
    int pageRows,
    double bloomFpp,
    long maxBloomNdv) {
  public static final SstWriterOptions DEFAULT =
      new SstWriterOptions(CompressionCodecName.ZSTD, 16L << 20, 256, 0.01, 400_000);
}
