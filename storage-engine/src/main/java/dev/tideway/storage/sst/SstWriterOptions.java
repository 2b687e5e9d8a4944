package dev.tideway.storage.sst;

import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * Parquet settings of an SST (measured choices: ZSTD, 16 MB row groups, 256-row aligned pages so a
 * point get decodes one small block, key bloom filter sized for one row group at FPP 0.001: a false
 * positive decodes a block, some 40 µs against the probe's 50 ns, and at 0.01 those loads were a
 * third of a bulk insert's existence checks over a few staged SSTs).
 */
public record SstWriterOptions(
    CompressionCodecName codec,
    long rowGroupBytes,
    int pageRows,
    double bloomFpp,
    long maxBloomNdv) {
  public static final SstWriterOptions DEFAULT =
      new SstWriterOptions(CompressionCodecName.ZSTD, 16L << 20, 256, 0.001, 400_000);
}
