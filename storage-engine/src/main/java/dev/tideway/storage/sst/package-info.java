/**
 * The SST file: one Parquet file per SST (writer, verifying reader with in-memory page index and
 * bloom filters, decoded-block cache, codec factory without Hadoop codecs). Invariant: rows sorted
 * by key asc, epoch desc.
 */
package dev.tideway.storage.sst;
