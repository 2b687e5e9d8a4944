package dev.tideway.common.chunk;

/**
 * The change a row of a {@link StreamChunk} carries. An update is a {@link #UPDATE_DELETE} row
 * immediately followed by its {@link #UPDATE_INSERT} row (same chunk, adjacent), so an executor
 * that does not care about updates may treat them as a delete and an insert.
 */
public enum Op {
  INSERT((byte) 1, "+"),
  DELETE((byte) 2, "-"),
  UPDATE_DELETE((byte) 3, "U-"),
  UPDATE_INSERT((byte) 4, "U+");

  private static final Op[] BY_CODE = {null, INSERT, DELETE, UPDATE_DELETE, UPDATE_INSERT};

  private final byte code;
  private final String symbol;

  Op(byte code, String symbol) {
    this.code = code;
    this.symbol = symbol;
  }

  /** The persisted and wire byte code. */
  public byte code() {
    return code;
  }

  /** The DSL symbol: {@code +}, {@code -}, {@code U-}, {@code U+}. */
  public String symbol() {
    return symbol;
  }

  /** True for {@link #INSERT} and {@link #UPDATE_INSERT}: the row is added. */
  public boolean isInsert() {
    return this == INSERT || this == UPDATE_INSERT;
  }

  /** +1 for a row that is added, -1 for a row that is removed. */
  public int sign() {
    return isInsert() ? 1 : -1;
  }

  public static Op fromCode(byte code) {
    if (code <= 0 || code >= BY_CODE.length) {
      throw new IllegalArgumentException("unknown op code " + code);
    }
    return BY_CODE[code];
  }

  /** The op for a DSL symbol; fails naming the symbol. */
  public static Op fromSymbol(String s) {
    return switch (s) {
      case "+" -> INSERT;
      case "-" -> DELETE;
      case "U-" -> UPDATE_DELETE;
      case "U+" -> UPDATE_INSERT;
      default ->
          throw new IllegalArgumentException("unknown op '" + s + "' (expected +, -, U-, U+)");
    };
  }
}
