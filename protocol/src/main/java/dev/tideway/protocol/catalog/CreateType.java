package dev.tideway.protocol.catalog;

/** Whether the DDL statement waits for its job. Fixed codes: never reuse or renumber one. */
public enum CreateType {
  /** The DDL returns when the job is {@code CREATED}. */
  FOREGROUND(1),
  /** The DDL returns at once; the job carries on across restarts and failover. */
  BACKGROUND(2);

  private final byte code;

  CreateType(int code) {
    this.code = (byte) code;
  }

  public byte code() {
    return code;
  }

  public static CreateType fromCode(int code) {
    for (CreateType t : values()) {
      if (t.code == code) {
        return t;
      }
    }
    throw new IllegalArgumentException("unknown create type code " + code);
  }
}
