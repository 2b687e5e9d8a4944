package dev.tideway.compute.executor.source;

import dev.tideway.common.check.Checks;
import dev.tideway.common.chunk.ColumnBuilder;
import dev.tideway.common.chunk.Op;
import dev.tideway.common.chunk.StreamChunkBuilder;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Schema;
import dev.tideway.common.types.Temporals;
import dev.tideway.common.types.TypeId;
import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The {@code datagen} connector: rows generated per column from {@code WITH (...)} options, as in
 * RisingWave:
 *
 * <pre>
 * fields.&lt;col&gt;.kind   = sequence | random     (default random)
 * fields.&lt;col&gt;.start / .end                    sequence bounds (integers; default 1 / unbounded)
 * fields.&lt;col&gt;.min / .max                      random numbers (default 0 / 1000)
 * fields.&lt;col&gt;.length                         random varchar length (default 10)
 * fields.&lt;col&gt;.max_past_ms                    random timestamps in [base - max_past, base]
 * fields.&lt;col&gt;.seed                           per-column seed (default datagen.seed + column)
 * datagen.split.num = N     datagen.seed = S     datagen.base.time = '2024-01-01 00:00:00'
 * </pre>
 *
 * Split {@code k} of {@code N} emits rows {@code k, k + N, k + 2N, ...}: offset {@code o} is row
 * {@code k + o·N}, whose sequence values are {@code start + k + o·N} and whose random values are a
 * hash of (column seed, row number). The split is exhausted once a sequence column would pass its
 * end, so {@code N} splits together emit each sequence value exactly once.
 *
 * <p>Immutable; reads allocate only the chunk.
 */
public final class DatagenSplitReader implements SplitReader {
  private final Schema schema;
  private final List<FieldGen> fields;
  private final int splitIndex;
  private final int splitCount;

  /** Rows this split has in total, or Long.MAX_VALUE when no sequence column bounds it. */
  private final long rowLimit;

  /** How one column is generated. */
  private record FieldGen(
      boolean sequence,
      long start,
      long end,
      double min,
      double max,
      int length,
      long maxPastMicros,
      long baseMicros,
      long seed) {}

  private DatagenSplitReader(Schema schema, List<FieldGen> fields, int splitIndex, int splitCount) {
    this.schema = schema;
    this.fields = fields;
    this.splitIndex = splitIndex;
    this.splitCount = splitCount;
    long limit = Long.MAX_VALUE;
    for (FieldGen f : fields) {
      if (f.sequence && f.end != Long.MAX_VALUE) {
        long total = f.end - f.start + 1; // rows overall
        long mine = total <= splitIndex ? 0 : (total - splitIndex + splitCount - 1) / splitCount;
        limit = Math.min(limit, mine);
      }
    }
    this.rowLimit = limit;
  }

  /** The readers of every split the options describe ({@code datagen.split.num}). */
  public static List<SplitReader> allSplits(Schema schema, Map<String, String> options) {
    int n = Integer.parseInt(options.getOrDefault("datagen.split.num", "1"));
    Checks.checkArgument(n > 0, "datagen.split.num must be > 0, got %s", n);
    List<FieldGen> fields = parseFields(schema, options);
    List<SplitReader> out = new ArrayList<>(n);
    for (int k = 0; k < n; k++) {
      out.add(new DatagenSplitReader(schema, fields, k, n));
    }
    return out;
  }

  private static List<FieldGen> parseFields(Schema schema, Map<String, String> o) {
    long seed = Long.parseLong(o.getOrDefault("datagen.seed", "0"));
    String baseText = o.getOrDefault("datagen.base.time", "2024-01-01 00:00:00");
    long baseMicros;
    try {
      baseMicros = Temporals.timestampToMicros(LocalDateTime.parse(baseText.replace(' ', 'T')));
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException("datagen.base.time: bad timestamp '" + baseText + "'", e);
    }
    List<FieldGen> out = new ArrayList<>();
    for (int c = 0; c < schema.size(); c++) {
      String p = "fields." + schema.field(c).name() + ".";
      TypeId t = schema.type(c).id();
      String kind = o.getOrDefault(p + "kind", "random").toLowerCase(Locale.ROOT);
      Checks.checkArgument(
          kind.equals("random") || kind.equals("sequence"),
          "%skind must be 'sequence' or 'random', got '%s'",
          p,
          kind);
      boolean seq = kind.equals("sequence");
      Checks.checkArgument(
          !seq || t == TypeId.SMALLINT || t == TypeId.INT || t == TypeId.BIGINT,
          "%skind = sequence needs an integer column, %s is %s",
          p,
          schema.field(c).name(),
          schema.type(c));
      long start = Long.parseLong(o.getOrDefault(p + "start", "1"));
      long end = o.containsKey(p + "end") ? Long.parseLong(o.get(p + "end")) : Long.MAX_VALUE;
      Checks.checkArgument(!seq || end >= start, "%send %s is before start %s", p, end, start);
      double min = Double.parseDouble(o.getOrDefault(p + "min", "0"));
      double max = Double.parseDouble(o.getOrDefault(p + "max", "1000"));
      Checks.checkArgument(max >= min, "%smax %s is below min %s", p, max, min);
      int length = Integer.parseInt(o.getOrDefault(p + "length", "10"));
      long maxPastMs = Long.parseLong(o.getOrDefault(p + "max_past_ms", "86400000"));
      long fieldSeed = Long.parseLong(o.getOrDefault(p + "seed", Long.toString(seed + c)));
      out.add(
          new FieldGen(seq, start, end, min, max, length, maxPastMs * 1000, baseMicros, fieldSeed));
    }
    return out;
  }

  @Override
  public String splitId() {
    return "datagen-" + splitIndex + "-of-" + splitCount;
  }

  @Override
  public Schema schema() {
    return schema;
  }

  @Override
  public boolean isExhausted(long offset) {
    return offset >= rowLimit;
  }

  @Override
  public Batch read(long offset, int maxRows) {
    int rows = (int) Math.max(0, Math.min(maxRows, rowLimit - offset));
    StreamChunkBuilder b = new StreamChunkBuilder(schema.types(), rows);
    for (int r = 0; r < rows; r++) {
      long row = splitIndex + (offset + r) * splitCount;
      for (int c = 0; c < fields.size(); c++) {
        append(b.column(c), schema.type(c), fields.get(c), row);
      }
      b.appendOp(Op.INSERT); // the builder takes rows whole: every column, then the op
    }
    return new Batch(b.build(), offset + rows);
  }

  private static void append(ColumnBuilder col, DataType type, FieldGen f, long row) {
    long h = Mix.of(f.seed, row);
    switch (type.id()) {
      case SMALLINT -> col.appendShort((short) integer(f, row, h));
      case INT -> col.appendInt((int) integer(f, row, h));
      case BIGINT -> col.appendLong(integer(f, row, h));
      case REAL -> col.appendFloat((float) (f.min + Mix.unit(h) * (f.max - f.min)));
      case DOUBLE -> col.appendDouble(f.min + Mix.unit(h) * (f.max - f.min));
      case DECIMAL -> col.append(BigDecimal.valueOf(f.min + Mix.unit(h) * (f.max - f.min)));
      case BOOLEAN -> col.appendBoolean((h & 1) == 1);
      case VARCHAR -> col.append(randomString(h, f.length));
      case TIMESTAMP, TIMESTAMPTZ ->
          col.appendLong(f.baseMicros - Mix.between(h, 0, Math.max(0, f.maxPastMicros)));
      case DATE -> col.appendInt((int) Mix.between(h, 18_000, 20_000));
      default ->
          throw new IllegalArgumentException(
              "datagen cannot generate column type " + type.sqlName());
    }
  }

  private static long integer(FieldGen f, long row, long h) {
    return f.sequence ? f.start + row : Mix.between(h, (long) f.min, (long) f.max);
  }

  private static final char[] ALPHABET =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".toCharArray();

  static String randomString(long hash, int length) {
    char[] out = new char[length];
    long h = hash;
    for (int i = 0; i < length; i++) {
      if (i % 10 == 0) {
        h = Mix.mix64(h + i);
      }
      out[i] = ALPHABET[(int) Long.remainderUnsigned(h, ALPHABET.length)];
      h = Long.divideUnsigned(h, ALPHABET.length);
    }
    return new String(out);
  }
}
