package dev.tideway.it.slt;

import dev.tideway.it.slt.SltRecord.Location;
import dev.tideway.it.slt.SltRecord.SortMode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Parses RisingWave's e2e {@code .slt} format (sqllogictest-rs): records separated by blank lines;
 * {@code statement ok | error [regex] | count N}; {@code query <types> [sort mode] [label] [retry N
 * backoff D]} with {@code ----} and expected rows; {@code query error [regex]}; an optional {@code
 * ----} block after an error record giving text the message must contain; bare {@code flush};
 * {@code sleep D}; {@code include <glob>} (relative to the including file, expanded in place);
 * {@code control sortmode M}; {@code halt}; {@code skipif}/{@code onlyif <engine>} before a record;
 * {@code hash-threshold} (ignored); {@code #} comments. Anything else is a parse error naming file
 * and line.
 *
 * <p>Stateless apart from the engine name; every method is a function of its input (and, for
 * includes, of the files on disk).
 */
final class SltParser {
  /** Which {@code skipif}/{@code onlyif} engine name this runner answers to. */
  static final String ENGINE = "tideway";

  /** A parse error: names the file and line. */
  static final class SltParseException extends RuntimeException {
    SltParseException(Location at, String why) {
      super(at + ": " + why);
    }
  }

  private final String file;
  private final List<String> lines;
  private final Optional<Path> dir;
  private final int depth;
  private int i;

  private SltParser(String file, String text, Optional<Path> dir, int depth) {
    this.file = file;
    this.lines = text.lines().toList();
    this.dir = dir;
    this.depth = depth;
  }

  /** Parses a file, expanding its includes. */
  static List<SltRecord> parseFile(Path path) {
    return parseFile(path, 0);
  }

  private static List<SltRecord> parseFile(Path path, int depth) {
    try {
      String text = Files.readString(path, StandardCharsets.UTF_8);
      return new SltParser(path.toString(), text, Optional.of(path.getParent()), depth).parse();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + path, e);
    }
  }

  /** Parses text named {@code file}; includes resolve against {@code dir} when given. */
  static List<SltRecord> parse(String file, String text, Optional<Path> dir) {
    return new SltParser(file, text, dir, 0).parse();
  }

  private Location at() {
    return new Location(file, i + 1);
  }

  private SltParseException error(String why) {
    return new SltParseException(at(), why);
  }

  private static boolean blank(String line) {
    return line.isBlank();
  }

  private List<SltRecord> parse() {
    List<SltRecord> out = new ArrayList<>();
    boolean skipNext = false;
    while (i < lines.size()) {
      String line = lines.get(i).strip();
      if (blank(line) || line.startsWith("#")) {
        i++;
        continue;
      }
      String[] w = line.split("\\s+");
      String head = w[0].toLowerCase(Locale.ROOT);
      if (head.equals("skipif") || head.equals("onlyif")) {
        if (w.length < 2) {
          throw error(head + " needs an engine name");
        }
        boolean us = w[1].equalsIgnoreCase(ENGINE);
        skipNext |= head.equals("skipif") == us;
        i++;
        continue;
      }
      List<SltRecord> records = record(head, w, line);
      if (!skipNext) {
        out.addAll(records);
      }
      skipNext = false;
    }
    return out;
  }

  private List<SltRecord> record(String head, String[] w, String line) {
    Location loc = at();
    switch (head) {
      case "statement" -> {
        return List.of(statement(loc, w, line));
      }
      case "query" -> {
        return List.of(query(loc, w, line));
      }
      case "flush" -> {
        i++;
        return List.of(new SltRecord.Flush(loc));
      }
      case "halt" -> {
        i++;
        return List.of(new SltRecord.Halt(loc));
      }
      case "sleep" -> {
        if (w.length != 2) {
          throw error("sleep needs one duration, like 500ms or 1s");
        }
        long ms = duration(w[1]);
        i++;
        return List.of(new SltRecord.Sleep(loc, ms));
      }
      case "hash-threshold" -> {
        i++;
        return List.of();
      }
      case "control" -> {
        if (w.length != 3 || !w[1].equalsIgnoreCase("sortmode")) {
          throw error("only 'control sortmode <nosort|rowsort|valuesort>' is supported");
        }
        SortMode m = sortMode(w[2]).orElseThrow(() -> error("unknown sort mode " + w[2]));
        i++;
        return List.of(new SltRecord.SortModeControl(loc, m));
      }
      case "include" -> {
        if (w.length != 2) {
          throw error("include needs one path");
        }
        i++;
        return include(loc, w[1]);
      }
      default -> throw error("unknown record type \"" + head + "\" in: " + line);
    }
  }

  private List<SltRecord> include(Location loc, String glob) {
    if (dir.isEmpty()) {
      throw new SltParseException(loc, "include " + glob + " in text without a directory");
    }
    if (depth > 16) {
      throw new SltParseException(loc, "includes nested more than 16 deep (a cycle?) at " + glob);
    }
    Path base = dir.get().resolve(glob).getParent();
    String namePattern = Path.of(glob).getFileName().toString();
    List<Path> matches = new ArrayList<>();
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(base, namePattern)) {
      ds.forEach(matches::add);
    } catch (IOException e) {
      throw new SltParseException(loc, "cannot list " + base + " for include " + glob + ": " + e);
    }
    if (matches.isEmpty()) {
      throw new SltParseException(loc, "include " + glob + " matches no file");
    }
    matches.sort(null);
    List<SltRecord> out = new ArrayList<>();
    for (Path p : matches) {
      out.addAll(parseFile(p, depth + 1));
    }
    return out;
  }

  /** SQL lines from the line after the header up to a blank line or {@code ----}. */
  private String sql() {
    i++;
    List<String> sql = new ArrayList<>();
    while (i < lines.size() && !blank(lines.get(i)) && !lines.get(i).strip().equals("----")) {
      String l = lines.get(i);
      if (!l.strip().startsWith("#")) {
        sql.add(l);
      }
      i++;
    }
    if (sql.isEmpty()) {
      throw error("record without SQL");
    }
    String s = String.join("\n", sql).strip();
    return s.endsWith(";") ? s.substring(0, s.length() - 1) : s;
  }

  /** After SQL: the lines of a {@code ----} block (to a blank line), or empty without one. */
  private Optional<List<String>> resultBlock() {
    if (i >= lines.size() || !lines.get(i).strip().equals("----")) {
      return Optional.empty();
    }
    i++;
    List<String> out = new ArrayList<>();
    while (i < lines.size() && !blank(lines.get(i))) {
      out.add(lines.get(i));
      i++;
    }
    return Optional.of(out);
  }

  private SltRecord.Expect errorExpect(String regex, Optional<List<String>> block) {
    Optional<Pattern> p = Optional.empty();
    if (!regex.isBlank()) {
      try {
        p = Optional.of(Pattern.compile(regex.strip()));
      } catch (PatternSyntaxException e) {
        throw error("bad error regex " + regex.strip() + ": " + e.getDescription());
      }
    }
    return new SltRecord.Error(p, block.map(b -> String.join("\n", b).strip()));
  }

  private SltRecord statement(Location loc, String[] w, String line) {
    if (w.length < 2) {
      throw error("statement needs ok, error or count");
    }
    String kind = w[1].toLowerCase(Locale.ROOT);
    switch (kind) {
      case "ok" -> {
        String sql = sql();
        if (resultBlock().isPresent()) {
          throw new SltParseException(loc, "statement ok with a ---- block (use query)");
        }
        return new SltRecord.Statement(loc, sql, new SltRecord.Ok(OptionalLong.empty()));
      }
      case "count" -> {
        if (w.length != 3) {
          throw error("statement count needs one number");
        }
        long n = number(w[2]);
        return new SltRecord.Statement(loc, sql(), new SltRecord.Ok(OptionalLong.of(n)));
      }
      case "error" -> {
        String regex = afterWords(line, 2);
        String sql = sql();
        return new SltRecord.Statement(loc, sql, errorExpect(regex, resultBlock()));
      }
      default -> throw error("statement needs ok, error or count, got " + w[1]);
    }
  }

  private SltRecord query(Location loc, String[] w, String line) {
    if (w.length < 2) {
      throw error("query needs column types (I, T, R, ...) or error");
    }
    if (w[1].equalsIgnoreCase("error")) {
      String regex = afterWords(line, 2);
      String sql = sql();
      SltRecord.Expect e = errorExpect(regex, resultBlock());
      return new SltRecord.Query(loc, "", Optional.empty(), sql, List.of(), e, 0, 0);
    }
    String types = w[1];
    if (!types.matches("[A-Za-z]+")) {
      throw error("query column types must be letters, got " + types);
    }
    Optional<SortMode> mode = Optional.empty();
    int retries = 0;
    long backoff = 0;
    for (int k = 2; k < w.length; k++) {
      Optional<SortMode> m = sortMode(w[k]);
      if (m.isPresent()) {
        mode = m;
      } else if (w[k].equalsIgnoreCase("retry") && k + 1 < w.length) {
        retries = (int) number(w[++k]);
        if (k + 2 < w.length && w[k + 1].equalsIgnoreCase("backoff")) {
          backoff = duration(w[k + 2]);
          k += 2;
        }
      }
      // anything else is a label, which only matters for hashed results
    }
    String sql = sql();
    List<String> expected = resultBlock().orElse(List.of());
    return new SltRecord.Query(
        loc, types, mode, sql, expected, new SltRecord.Ok(OptionalLong.empty()), retries, backoff);
  }

  /** The rest of {@code line} after its first {@code n} words. */
  private static String afterWords(String line, int n) {
    String rest = line.strip();
    for (int k = 0; k < n; k++) {
      int sp = rest.indexOf(' ');
      int tab = rest.indexOf('\t');
      int cut = sp < 0 ? tab : tab < 0 ? sp : Math.min(sp, tab);
      if (cut < 0) {
        return "";
      }
      rest = rest.substring(cut).strip();
    }
    return rest;
  }

  private static Optional<SortMode> sortMode(String w) {
    return switch (w.toLowerCase(Locale.ROOT)) {
      case "nosort" -> Optional.of(SortMode.NOSORT);
      case "rowsort" -> Optional.of(SortMode.ROWSORT);
      case "valuesort" -> Optional.of(SortMode.VALUESORT);
      default -> Optional.empty();
    };
  }

  private long number(String w) {
    try {
      return Long.parseLong(w);
    } catch (NumberFormatException e) {
      throw error("expected a number, got " + w);
    }
  }

  /** {@code 250ms}, {@code 1s}, {@code 1.5s}, {@code 2m}. */
  private long duration(String w) {
    var m = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|sec|secs|m|min)").matcher(w);
    if (!m.matches()) {
      throw error("bad duration " + w + " (use 500ms, 1s or 2m)");
    }
    double v = Double.parseDouble(m.group(1));
    double unit =
        switch (m.group(2)) {
          case "ms" -> 1;
          case "m", "min" -> 60_000;
          default -> 1000;
        };
    return Math.round(v * unit);
  }
}
