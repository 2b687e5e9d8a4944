package dev.tideway.meta.cluster;

import dev.tideway.common.check.Checks;

/** One change inside a fenced metadata commit. */
public sealed interface MetaWrite {
  String path();

  /** Create the persistent znode or overwrite its data. */
  record Put(String path, byte[] data) implements MetaWrite {
    public Put {
      Checks.checkNotNull(path, "put path");
      Checks.checkNotNull(data, "data for " + path);
    }
  }

  /** Delete the znode if it exists (it must have no children). */
  record Delete(String path) implements MetaWrite {
    public Delete {
      Checks.checkNotNull(path, "delete path");
    }
  }
}
