package dev.tideway.frontend.pgwire;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * PostgreSQL's COPY sub-protocol on one connection: {@code COPY ... FROM STDIN} (CopyInResponse,
 * then the client's CopyData until CopyDone or CopyFail) and {@code COPY ... TO STDOUT}
 * (CopyOutResponse, CopyData per row, CopyDone). The connection's thread only.
 */
final class PgCopy {
  private final PgReader reader;
  private final PgWriter writer;

  PgCopy(PgReader reader, PgWriter writer) {
    this.reader = reader;
    this.writer = writer;
  }

  /**
   * The COPY-in sub-protocol: CopyInResponse, then the client's CopyData until CopyDone (the rows
   * are applied) or CopyFail (nothing is). After a bad row the rest of the data is read and
   * dropped, and the error is reported at CopyDone, as PostgreSQL does.
   */
  PgSession.Result in(PgSession.CopyIn in) throws IOException {
    writer.begin('G').putByte(0).putShort(in.columns());
    for (int i = 0; i < in.columns(); i++) {
      writer.putShort(0);
    }
    writer.end();
    writer.flush();
    RuntimeException failed = null;
    while (true) {
      PgReader.Message m = reader.readMessage();
      if (m == null) {
        in.abort();
        throw PgException.fatal(SqlState.CONNECTION_FAILURE, "connection lost during COPY");
      }
      switch (m.type()) {
        case 'd' -> {
          if (failed == null) {
            try {
              in.data(m.body().getBytes(m.body().remaining()));
            } catch (RuntimeException e) {
              failed = e;
              in.abort();
            }
          }
        }
        case 'c' -> {
          if (failed != null) {
            throw failed;
          }
          try {
            return PgSession.Result.command(in.done());
          } catch (RuntimeException e) {
            in.abort(); // a bad last row: nothing of the COPY is written
            throw e;
          }
        }
        case 'f' -> {
          in.abort();
          throw PgException.error(
              SqlState.QUERY_CANCELED, "COPY from stdin failed: " + m.body().getCString());
        }
        case 'H', 'S' -> {
          // Flush and Sync mean nothing during COPY
        }
        default -> {
          in.abort();
          throw PgException.protocol(
              "unexpected message type " + m.type() + " during COPY from stdin");
        }
      }
    }
  }

  /**
   * {@code COPY ... TO STDOUT}: CopyOutResponse, one CopyData per row in text or CSV, CopyDone,
   * then the command's completion.
   */
  void out(PgSession.Result r) throws IOException {
    PgSession.CopyOut f = r.copyOut();
    int n = r.columns().size();
    writer.begin('H').putByte(0).putShort(n);
    for (int i = 0; i < n; i++) {
      writer.putShort(0);
    }
    writer.end();
    if (f.header()) {
      String[] names = r.columns().stream().map(PgSession.Column::name).toArray(String[]::new);
      copyData(f, names);
    }
    for (Object[] row : r.rows()) {
      String[] fields = new String[n];
      for (int i = 0; i < n; i++) {
        fields[i] =
            row[i] == null
                ? null
                : new String(
                    PgCodec.encodeText(r.columns().get(i).type(), row[i]), StandardCharsets.UTF_8);
      }
      copyData(f, fields);
      if (writer.buffered() > 1 << 16) {
        writer.flush();
      }
    }
    writer.begin('c').end();
    writer.begin('C').putCString("COPY " + r.rows().size()).end();
  }

  private void copyData(PgSession.CopyOut f, String[] fields) {
    StringBuilder line = new StringBuilder();
    for (int i = 0; i < fields.length; i++) {
      if (i > 0) {
        line.append(f.delimiter());
      }
      String v = fields[i];
      if (v == null) {
        line.append(f.nullString());
      } else if (f.csv()) {
        boolean quote =
            v.isEmpty()
                || v.equals(f.nullString())
                || v.indexOf(f.delimiter()) >= 0
                || v.indexOf('"') >= 0
                || v.indexOf('\n') >= 0
                || v.indexOf('\r') >= 0;
        line.append(quote ? '"' + v.replace("\"", "\"\"") + '"' : v);
      } else {
        for (int k = 0; k < v.length(); k++) {
          char c = v.charAt(k);
          switch (c) {
            case '\\' -> line.append("\\\\");
            case '\n' -> line.append("\\n");
            case '\r' -> line.append("\\r");
            case '\t' -> line.append("\\t");
            default -> {
              if (c == f.delimiter()) {
                line.append('\\');
              }
              line.append(c);
            }
          }
        }
      }
    }
    line.append('\n');
    writer.begin('d').putBytes(line.toString().getBytes(StandardCharsets.UTF_8)).end();
  }
}
