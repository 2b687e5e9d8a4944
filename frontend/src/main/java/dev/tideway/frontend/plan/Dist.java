package dev.tideway.frontend.plan;

import java.util.List;

/**
 * Where a planned sub-tree's rows are: hashed on these physical columns, on one actor ({@link
 * #SINGLE}), or anywhere ({@link #ANY}).
 */
record Dist(boolean single, List<Integer> keys) {
  static final Dist SINGLE = new Dist(true, List.of());
  static final Dist ANY = new Dist(false, List.of());

  static Dist hash(List<Integer> keys) {
    return new Dist(false, List.copyOf(keys));
  }

  boolean isHash() {
    return !single && !keys.isEmpty();
  }
}
