package dev.tideway.barrier.util;

import dev.tideway.common.check.Checks;

/**
 * An open-addressing {@code int -> int} map with linear probing, for actor id lookups on the hot
 * path without boxing. Keys may be any int except {@link Integer#MIN_VALUE} (the empty marker);
 * {@link #get} returns {@code missing} for absent keys. Not thread-safe.
 */
public final class IntIntMap {
  private static final int EMPTY = Integer.MIN_VALUE;
  private int[] keys;
  private int[] values;
  private int size;
  private int mask;

  public IntIntMap(int expectedSize) {
    int cap = Integer.highestOneBit(Math.max(4, expectedSize * 2 - 1)) << 1;
    keys = new int[cap];
    values = new int[cap];
    java.util.Arrays.fill(keys, EMPTY);
    mask = cap - 1;
  }

  private static int mix(int key) {
    int h = key * 0x9E3779B9;
    return h ^ (h >>> 16);
  }

  /** The value of {@code key}, or {@code missing}. */
  public int get(int key, int missing) {
    int i = mix(key) & mask;
    while (true) {
      int k = keys[i];
      if (k == key) {
        return values[i];
      }
      if (k == EMPTY) {
        return missing;
      }
      i = (i + 1) & mask;
    }
  }

  public boolean containsKey(int key) {
    int i = mix(key) & mask;
    while (true) {
      int k = keys[i];
      if (k == key) {
        return true;
      }
      if (k == EMPTY) {
        return false;
      }
      i = (i + 1) & mask;
    }
  }

  /** Sets {@code key -> value}. */
  public void put(int key, int value) {
    Checks.checkArgument(key != EMPTY, "key %s is reserved", key);
    if ((size + 1) * 2 > keys.length) {
      grow();
    }
    int i = mix(key) & mask;
    while (true) {
      int k = keys[i];
      if (k == key) {
        values[i] = value;
        return;
      }
      if (k == EMPTY) {
        keys[i] = key;
        values[i] = value;
        size++;
        return;
      }
      i = (i + 1) & mask;
    }
  }

  /** Removes {@code key}; returns whether it was present. */
  public boolean remove(int key) {
    int i = mix(key) & mask;
    while (keys[i] != key) {
      if (keys[i] == EMPTY) {
        return false;
      }
      i = (i + 1) & mask;
    }
    keys[i] = EMPTY;
    size--;
    // Re-insert the rest of the probe run so lookups never stop early.
    int j = (i + 1) & mask;
    while (keys[j] != EMPTY) {
      int k = keys[j];
      int v = values[j];
      keys[j] = EMPTY;
      size--;
      put(k, v);
      j = (j + 1) & mask;
    }
    return true;
  }

  public int size() {
    return size;
  }

  private void grow() {
    int[] oldKeys = keys;
    int[] oldValues = values;
    keys = new int[oldKeys.length * 2];
    values = new int[oldKeys.length * 2];
    java.util.Arrays.fill(keys, EMPTY);
    mask = keys.length - 1;
    size = 0;
    for (int i = 0; i < oldKeys.length; i++) {
      if (oldKeys[i] != EMPTY) {
        put(oldKeys[i], oldValues[i]);
      }
    }
  }
}
