package dev.tideway.storage.memtable;

import dev.tideway.storage.api.Keys;
import dev.tideway.storage.iterator.Entry;
import java.util.Arrays;

/**
 * Key bytes → latest entry of a {@link Memtable}: open addressing with linear probing, at most half
 * full, no removal (a delete is a tombstone entry). Written by the memtable's writer thread only;
 * after {@link Memtable#freeze} it is never written again, and the {@link ImmutableMemtable} that
 * took it over answers gets from it on any thread (published through the shared buffer's lock).
 *
 * <p>It also keeps the greatest key put for each vnode, so a get of a key past it answers without
 * probing the table: the check that an inserted key is new, for keys arriving in ascending order
 * per vnode (a bulk load of ids or timestamps), costs one comparison instead of a cache miss in
 * every memtable of the shared buffer. Keys shorter than the table prefix are always probed.
 */
final class KeyIndex {
  private Entry[] slots = new Entry[64];
  private int[] hashes = new int[64];
  private int size;

  /** By vnode: the greatest key put (any table), or null. Grown to the highest vnode seen. */
  private byte[][] vnodeMax = new byte[0][];

  int size() {
    return size;
  }

  Entry get(byte[] key) {
    if (key.length >= Keys.PREFIX_LEN) {
      int v = vnode(key);
      if (v >= vnodeMax.length
          || vnodeMax[v] == null
          || Arrays.compareUnsigned(key, vnodeMax[v]) > 0) {
        return null;
      }
    }
    int h = hash(key);
    int mask = slots.length - 1;
    for (int i = h & mask; ; i = (i + 1) & mask) {
      Entry e = slots[i];
      if (e == null) {
        return null;
      }
      if (hashes[i] == h && Arrays.equals(e.key(), key)) {
        return e;
      }
    }
  }

  /** Maps the entry's key to it; returns the entry it replaced, or null. */
  Entry put(Entry entry) {
    if (2 * (size + 1) > slots.length) {
      grow();
    }
    noteMax(entry.key());
    int h = hash(entry.key());
    int mask = slots.length - 1;
    for (int i = h & mask; ; i = (i + 1) & mask) {
      Entry e = slots[i];
      if (e == null) {
        slots[i] = entry;
        hashes[i] = h;
        size++;
        return null;
      }
      if (hashes[i] == h && Arrays.equals(e.key(), entry.key())) {
        slots[i] = entry;
        return e;
      }
    }
  }

  private void noteMax(byte[] key) {
    if (key.length < Keys.PREFIX_LEN) {
      return;
    }
    int v = vnode(key);
    if (v >= vnodeMax.length) {
      vnodeMax = Arrays.copyOf(vnodeMax, Math.max(v + 1, Math.min(2 * vnodeMax.length, 1 << 16)));
    }
    byte[] max = vnodeMax[v];
    if (max == null || Arrays.compareUnsigned(key, max) > 0) {
      vnodeMax[v] = key;
    }
  }

  private static int vnode(byte[] key) {
    return ((key[4] & 0xFF) << 8) | (key[5] & 0xFF);
  }

  private void grow() {
    Entry[] oldSlots = slots;
    int[] oldHashes = hashes;
    slots = new Entry[oldSlots.length * 2];
    hashes = new int[oldSlots.length * 2];
    int mask = slots.length - 1;
    for (int k = 0; k < oldSlots.length; k++) {
      if (oldSlots[k] != null) {
        int i = oldHashes[k] & mask;
        while (slots[i] != null) {
          i = (i + 1) & mask;
        }
        slots[i] = oldSlots[k];
        hashes[i] = oldHashes[k];
      }
    }
  }

  /** Arrays.hashCode spread by a multiplication, so linear probing sees well-mixed low bits. */
  private static int hash(byte[] key) {
    int h = Arrays.hashCode(key) * 0x9E3779B9;
    return h ^ (h >>> 16);
  }

  /** The current entries, in no order. */
  Entry[] values() {
    Entry[] out = new Entry[size];
    int n = 0;
    for (Entry e : slots) {
      if (e != null) {
        out[n++] = e;
      }
    }
    return out;
  }
}
