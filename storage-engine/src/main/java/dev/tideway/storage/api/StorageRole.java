package dev.tideway.storage.api;

import dev.tideway.common.check.Checks;

/**
 * What one process may do with a state store that several processes open on the same object store.
 * Exactly one process (the meta leader) is the {@link Kind#VERSION_OWNER}: it alone commits epochs,
 * applies compaction results and deletes files. Compute nodes and frontends are {@link
 * Kind#FOLLOWER}s: they write SSTs (sync, compaction rewrites) under their own id space and follow
 * the versions the owner commits with {@link StateStore#refresh(long)}. A single-process store
 * (tests, benchmarks) is {@link Kind#STANDALONE}: it does everything itself, as before roles
 * existed.
 *
 * <p>SST ids: a process allocates ids {@code (sstIdSpace << 40) + n}, so processes never collide;
 * give every follower process its own space in {@code [1, MAX_SPACE]} (space 0 is the owner's).
 *
 * @param kind what this process may do
 * @param sstIdSpace the high bits of the SST ids this process allocates
 */
public record StorageRole(Kind kind, int sstIdSpace) {
  /** The largest id space; ids stay below {@code 2^55}. */
  public static final int MAX_SPACE = (1 << 15) - 1;

  /** Bits of an SST id below its space. */
  public static final int SPACE_SHIFT = 40;

  /** What a process may do. */
  public enum Kind {
    /** One process does everything: commits, compacts itself, vacuums at open. */
    STANDALONE,
    /**
     * The meta leader: commits, applies compactions, vacuums (with a grace period), no auto work.
     */
    VERSION_OWNER,
    /** A compute node or frontend: writes SSTs and reads; never changes the version. */
    FOLLOWER
  }

  public StorageRole {
    Checks.checkNotNull(kind, "storage role kind");
    Checks.checkArgument(
        sstIdSpace >= 0 && sstIdSpace <= MAX_SPACE,
        "sst id space must be in [0, %s], got %s",
        MAX_SPACE,
        sstIdSpace);
    Checks.checkArgument(
        kind != Kind.FOLLOWER || sstIdSpace > 0,
        "a follower needs its own sst id space > 0 (space 0 is the version owner's)");
  }

  public static StorageRole standalone() {
    return new StorageRole(Kind.STANDALONE, 0);
  }

  public static StorageRole versionOwner() {
    return new StorageRole(Kind.VERSION_OWNER, 0);
  }

  public static StorageRole follower(int sstIdSpace) {
    return new StorageRole(Kind.FOLLOWER, sstIdSpace);
  }

  /** Whether this process may change the version (commit, compaction results, change logs). */
  public boolean changesVersions() {
    return kind != Kind.FOLLOWER;
  }

  /** The first SST id of this process's space. */
  public long firstSstId() {
    return (long) sstIdSpace << SPACE_SHIFT;
  }

  /** Whether {@code sstId} was allocated in this process's space. */
  public boolean ownsSstId(long sstId) {
    return kind == Kind.STANDALONE || (sstId >>> SPACE_SHIFT) == sstIdSpace;
  }
}
