package dev.tideway.protocol.catalog;

/** The first byte of every persisted record. Fixed codes: never reuse or renumber one. */
public enum RecordKind {
  SYSTEM_PARAMS(1),
  CATALOG_OBJECT(2),
  JOB(3),
  FRAGMENT_GRAPH(4),
  VERSION_POINTER(5),
  NODE_INFO(6),
  LEADER_INFO(7),
  NEXT_ID(8),
  /** One job's progress tracker snapshot (meta.progress). */
  PROGRESS_SNAPSHOT(9),
  /** The recent recovery generations and their base epochs ({@link RecoveryLog}). */
  RECOVERY_LOG(10),
  /** The finished backfills the dashboard shows ({@link BackfillHistory}). */
  BACKFILL_HISTORY(11);

  private final byte code;

  RecordKind(int code) {
    this.code = (byte) code;
  }

  public byte code() {
    return code;
  }

  /** The kind with this code; fails naming the code. */
  public static RecordKind fromCode(int code) {
    for (RecordKind k : values()) {
      if (k.code == code) {
        return k;
      }
    }
    throw new IllegalArgumentException("unknown metadata record kind code " + code);
  }
}
