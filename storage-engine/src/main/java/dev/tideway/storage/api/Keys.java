package dev.tideway.storage.api;

import dev.tideway.common.check.Checks;
import java.util.Arrays;
import java.util.Comparator;

/**
 * The storage key layout: {@code table_id (4, big-endian) | vnode (2, big-endian) | memcomparable
 * pk}. Keys compare as unsigned bytes, so a table's keys are contiguous and, inside a table, a
 * vnode's keys are contiguous. The epoch is not part of these bytes: it travels beside the key and
 * orders versions of one key newest first.
 */
public final class Keys {
  /** Bytes before the pk. */
  public static final int PREFIX_LEN = 6;

  /** Unsigned lexicographic order of keys. */
  public static final Comparator<byte[]> ORDER = Arrays::compareUnsigned;

  private Keys() {}

  public static int compare(byte[] a, byte[] b) {
    return Arrays.compareUnsigned(a, b);
  }

  /** {@code table_id | vnode | pk}. */
  public static byte[] key(int tableId, int vnode, byte[] pk) {
    if (vnode < 0 || vnode > 0xFFFF) {
      Checks.checkArgument(false, "vnode %s out of [0, 65535]", vnode); // boxes only on failure
    }
    byte[] k = new byte[PREFIX_LEN + pk.length];
    writeInt(k, 0, tableId);
    k[4] = (byte) (vnode >>> 8);
    k[5] = (byte) vnode;
    System.arraycopy(pk, 0, k, PREFIX_LEN, pk.length);
    return k;
  }

  /** {@code table_id | vnode}: the prefix of one vnode of a table. */
  public static byte[] vnodePrefix(int tableId, int vnode) {
    return key(tableId, vnode, new byte[0]);
  }

  /** {@code table_id}: the prefix of a whole table. */
  public static byte[] tablePrefix(int tableId) {
    byte[] k = new byte[4];
    writeInt(k, 0, tableId);
    return k;
  }

  public static int tableId(byte[] key) {
    if (key.length < 4) {
      Checks.checkArgument(false, "key of %s bytes has no table id", key.length);
    }
    return ((key[0] & 0xFF) << 24)
        | ((key[1] & 0xFF) << 16)
        | ((key[2] & 0xFF) << 8)
        | (key[3] & 0xFF);
  }

  public static int vnode(byte[] key) {
    if (key.length < PREFIX_LEN) {
      Checks.checkArgument(false, "key of %s bytes has no vnode", key.length);
    }
    return ((key[4] & 0xFF) << 8) | (key[5] & 0xFF);
  }

  /** The pk bytes after table id and vnode. */
  public static byte[] pk(byte[] key) {
    return Arrays.copyOfRange(key, PREFIX_LEN, key.length);
  }

  /**
   * The smallest key greater than every key starting with {@code prefix}, or null when none exists
   * (the prefix is all 0xFF).
   */
  public static byte[] prefixEnd(byte[] prefix) {
    byte[] end = prefix.clone();
    for (int i = end.length - 1; i >= 0; i--) {
      if (end[i] != (byte) 0xFF) {
        end[i]++;
        return Arrays.copyOf(end, i + 1);
      }
    }
    return null;
  }

  static void writeInt(byte[] b, int off, int v) {
    b[off] = (byte) (v >>> 24);
    b[off + 1] = (byte) (v >>> 16);
    b[off + 2] = (byte) (v >>> 8);
    b[off + 3] = (byte) v;
  }

  /** Hex for messages. */
  public static String hex(byte[] key) {
    if (key == null) {
      return "-inf/+inf";
    }
    StringBuilder sb = new StringBuilder(key.length * 2);
    for (byte b : key) {
      sb.append(Character.forDigit((b >> 4) & 0xF, 16)).append(Character.forDigit(b & 0xF, 16));
    }
    return sb.toString();
  }
}
