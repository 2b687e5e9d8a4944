package dev.tideway.storage.table;

import dev.tideway.common.row.Row;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Schema;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Stand-in row codecs for the integer, boolean, text and bytea types (ascending order, NULL
 * first), used until the memcomparable and value encodings of {@code common} are wired in. Pk
 * format per column: {@code 0x00} for NULL, else {@code 0x01} and the value: integers big-endian
 * with the sign bit flipped, text/bytea as 0x00-escaped bytes ending {@code 0x00 0x00}.
 */
public final class BasicCodecs {
  private BasicCodecs() {}

  /** Codecs for {@code schema} with pk columns {@code pkIndices}; vnode = hash of the pk bytes. */
  public static RowCodecs of(Schema schema, int[] pkIndices, int vnodeCount) {
    List<DataType> pkTypes = new ArrayList<>();
    for (int i : pkIndices) {
      pkTypes.add(schema.type(i));
    }
    Pk pk = new Pk(pkTypes);
    return new RowCodecs(
        pk,
        new Value(schema.types()),
        row -> Math.floorMod(java.util.Arrays.hashCode(pk.encode(row)), vnodeCount));
  }

  private record Pk(List<DataType> types) implements RowCodecs.PkCodec {
    @Override
    public byte[] encode(Row pk) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      for (int i = 0; i < pk.size(); i++) {
        Object v = pk.get(i);
        if (v == null) {
          out.write(0);
          continue;
        }
        out.write(1);
        switch (types.get(i).id()) {
          case BOOLEAN -> out.write((Boolean) v ? 1 : 0);
          case SMALLINT -> out.writeBytes(ByteBuffer.allocate(2).putShort((short) (((Short) v) ^ Short.MIN_VALUE)).array());
          case INT, DATE -> out.writeBytes(ByteBuffer.allocate(4).putInt(((Integer) v) ^ Integer.MIN_VALUE).array());
          case BIGINT, TIME, TIMESTAMP, TIMESTAMPTZ -> out.writeBytes(ByteBuffer.allocate(8).putLong(((Long) v) ^ Long.MIN_VALUE).array());
          case VARCHAR -> escaped(out, ((String) v).getBytes(StandardCharsets.UTF_8));
          case BYTEA -> escaped(out, (byte[]) v);
          default -> throw new IllegalArgumentException("pk type " + types.get(i) + " not supported by BasicCodecs");
        }
      }
      return out.toByteArray();
    }

    private static void escaped(ByteArrayOutputStream out, byte[] b) {
      for (byte x : b) {
        out.write(x);
        if (x == 0) {
          out.write(0xFF);
        }
      }
      out.write(0);
      out.write(0);
    }

    @Override
    public Row decode(byte[] bytes) {
      ByteBuffer b = ByteBuffer.wrap(bytes);
      Object[] vals = new Object[types.size()];
      for (int i = 0; i < types.size() && b.hasRemaining(); i++) {
        if (b.get() == 0) {
          continue;
        }
        vals[i] = switch (types.get(i).id()) {
          case BOOLEAN -> b.get() == 1;
          case SMALLINT -> (short) (b.getShort() ^ Short.MIN_VALUE);
          case INT, DATE -> b.getInt() ^ Integer.MIN_VALUE;
          case BIGINT, TIME, TIMESTAMP, TIMESTAMPTZ -> b.getLong() ^ Long.MIN_VALUE;
          case VARCHAR -> new String(unescape(b), StandardCharsets.UTF_8);
          case BYTEA -> unescape(b);
          default -> throw new IllegalArgumentException("pk type " + types.get(i) + " not supported");
        };
      }
      return Row.wrap(vals);
    }

    private static byte[] unescape(ByteBuffer b) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      while (true) {
        byte x = b.get();
        if (x == 0) {
          if (b.get() == 0) {
            return out.toByteArray();
          }
        }
        out.write(x);
      }
    }
  }

  private record Value(List<DataType> types) implements RowCodecs.ValueCodec {
    @Override
    public byte[] encode(Row row) {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      DataOutputStream out = new DataOutputStream(bytes);
      try {
        for (int i = 0; i < types.size(); i++) {
          Object v = row.get(i);
          out.writeBoolean(v != null);
          if (v == null) {
            continue;
          }
          switch (types.get(i).id()) {
            case BOOLEAN -> out.writeBoolean((Boolean) v);
            case SMALLINT -> out.writeShort((Short) v);
            case INT, DATE -> out.writeInt((Integer) v);
            case BIGINT, TIME, TIMESTAMP, TIMESTAMPTZ -> out.writeLong((Long) v);
            case DOUBLE -> out.writeDouble((Double) v);
            case REAL -> out.writeFloat((Float) v);
            case VARCHAR -> out.writeUTF((String) v);
            case BYTEA -> {
              out.writeInt(((byte[]) v).length);
              out.write((byte[]) v);
            }
            default -> throw new IllegalArgumentException("type " + types.get(i) + " not supported by BasicCodecs");
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return bytes.toByteArray();
    }

    @Override
    public Row decode(byte[] bytes) {
      DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(bytes));
      Object[] vals = new Object[types.size()];
      try {
        for (int i = 0; i < types.size(); i++) {
          if (!in.readBoolean()) {
            continue;
          }
          vals[i] = switch (types.get(i).id()) {
            case BOOLEAN -> in.readBoolean();
            case SMALLINT -> in.readShort();
            case INT, DATE -> in.readInt();
            case BIGINT, TIME, TIMESTAMP, TIMESTAMPTZ -> in.readLong();
            case DOUBLE -> in.readDouble();
            case REAL -> in.readFloat();
            case VARCHAR -> in.readUTF();
            case BYTEA -> in.readNBytes(in.readInt());
            default -> throw new IllegalArgumentException("type " + types.get(i) + " not supported");
          };
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return Row.wrap(vals);
    }
  }
}
