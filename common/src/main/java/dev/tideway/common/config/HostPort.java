package dev.tideway.common.config;

import dev.tideway.common.check.Checks;

/**
 * A {@code host:port} address. IPv6 hosts are written in brackets ({@code [::1]:5690}) and kept
 * without them in {@link #host()}.
 *
 * @param host a host name or IP address, non-empty
 * @param port 1..65535
 */
public record HostPort(String host, int port) {
  public HostPort {
    Checks.checkArgument(host != null && !host.isEmpty(), "host must not be empty");
    Checks.checkArgument(port >= 1 && port <= 65535, "port %s out of [1, 65535]", port);
  }

  /** Parses {@code host:port} or {@code [v6]:port}; fails saying what was expected. */
  public static HostPort parse(String text) {
    String s = text.trim();
    int colon = s.lastIndexOf(':');
    if (colon <= 0 || colon == s.length() - 1) {
      throw new IllegalArgumentException("expected host:port, got '" + text + "'");
    }
    String host = s.substring(0, colon);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    } else if (host.contains(":")) {
      throw new IllegalArgumentException(
          "write IPv6 hosts in brackets ([::1]:5690), got '" + text + "'");
    }
    int port;
    try {
      port = Integer.parseInt(s.substring(colon + 1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("port in '" + text + "' is not a number");
    }
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException("port " + port + " in '" + text + "' out of [1, 65535]");
    }
    return new HostPort(host, port);
  }

  @Override
  public String toString() {
    return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
  }
}
