package dev.tideway.storage.sst;

import dev.tideway.storage.objectstore.ObjectWriter;
import java.io.IOException;
import java.util.zip.CRC32C;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;

/**
 * A Parquet {@link OutputFile} over one {@link ObjectWriter}, computing the CRC32C of every byte
 * written (the whole-file checksum kept in {@code SstInfo}). Closing the Parquet stream does not
 * commit the upload: the SST writer commits after the footer is complete.
 */
final class ObjectOutputFile implements OutputFile {
  private final ObjectWriter writer;
  private final CRC32C crc = new CRC32C();

  ObjectOutputFile(ObjectWriter writer) {
    this.writer = writer;
  }

  int crc32c() {
    return (int) crc.getValue();
  }

  @Override
  public PositionOutputStream create(long blockSizeHint) {
    return new PositionOutputStream() {
      @Override
      public long getPos() {
        return writer.position();
      }

      @Override
      public void write(int b) throws IOException {
        crc.update(b);
        writer.write(b);
      }

      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        crc.update(b, off, len);
        writer.write(b, off, len);
      }

      @Override
      public void close() {}
    };
  }

  @Override
  public PositionOutputStream createOrOverwrite(long blockSizeHint) {
    return create(blockSizeHint);
  }

  @Override
  public boolean supportsBlockSize() {
    return false;
  }

  @Override
  public long defaultBlockSize() {
    return 0;
  }

  @Override
  public String getPath() {
    return writer.path();
  }
}
