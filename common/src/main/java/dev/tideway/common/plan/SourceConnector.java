package dev.tideway.common.plan;

/**
 * The built-in source connectors ({@code CREATE SOURCE ... WITH (connector = ...)}). Codes are
 * fixed wire codes, never reused or renumbered.
 */
public enum SourceConnector {
  /** Generated rows (sequences, random values) per column options. */
  DATAGEN(1),
  /** The Nexmark auction benchmark's person, auction and bid events. */
  NEXMARK(2),
  /** A Kafka topic: one split per partition, its offset the record's. */
  KAFKA(3);

  private final byte code;

  SourceConnector(int code) {
    this.code = (byte) code;
  }

  /** The wire byte code. */
  public byte code() {
    return code;
  }

  /** The constant with this wire code; fails naming the code. */
  public static SourceConnector fromCode(int code) {
    for (SourceConnector v : values()) {
      if (v.code == code) {
        return v;
      }
    }
    throw PlanChecks.unknownCode("SourceConnector", code);
  }
}
