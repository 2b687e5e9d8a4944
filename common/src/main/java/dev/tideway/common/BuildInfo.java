package dev.tideway.common;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/** The build's version, read from a resource Maven filters at build time. */
public final class BuildInfo {
  private static final String VERSION = load();

  private BuildInfo() {}

  /** The Maven project version, e.g. {@code 0.1.0-SNAPSHOT}. */
  public static String version() {
    return VERSION;
  }

  private static String load() {
    try (InputStream in = BuildInfo.class.getResourceAsStream("build.properties")) {
      if (in == null) {
        return "unknown";
      }
      Properties p = new Properties();
      p.load(in);
      return p.getProperty("version", "unknown");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read build.properties", e);
    }
  }
}
