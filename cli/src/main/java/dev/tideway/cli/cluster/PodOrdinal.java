package dev.tideway.cli.cluster;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Ids a process takes from its host name, for pods of a Kubernetes StatefulSet ({@code
 * tideway-compute-2}): {@code --node-id ordinal} is the ordinal + 1, {@code --store-space ordinal}
 * is 1000 + the ordinal. A pod keeps its ordinal across restarts, so a compute node keeps its id
 * and its actors' placement.
 */
public final class PodOrdinal {
  /** The value that asks for the host name's ordinal. */
  public static final String ORDINAL = "ordinal";

  private static final Pattern TRAILING = Pattern.compile(".*-(\\d{1,6})$");

  private PodOrdinal() {}

  /**
   * {@code value} as a number, or for {@value #ORDINAL} {@code offset} + the trailing number of
   * {@code hostname}.
   *
   * @throws IllegalArgumentException naming {@code option} when it is neither
   */
  public static int resolve(String option, String value, int offset, String hostname) {
    if (value.matches("\\d{1,9}")) {
      return Integer.parseInt(value);
    }
    if (!value.equals(ORDINAL)) {
      throw new IllegalArgumentException(
          option + " must be a number or '" + ORDINAL + "', got '" + value + "'");
    }
    Matcher m = TRAILING.matcher(hostname == null ? "" : hostname);
    if (!m.matches()) {
      throw new IllegalArgumentException(
          option
              + " "
              + ORDINAL
              + " takes the number at the end of the host name (a StatefulSet pod's, such as"
              + " tideway-compute-0), but the host name is '"
              + hostname
              + "'");
    }
    return offset + Integer.parseInt(m.group(1));
  }

  /** This process's host name: {@code HOSTNAME} (set in every pod), else the system's. */
  public static String hostname() {
    String h = System.getenv("HOSTNAME");
    if (h != null && !h.isEmpty()) {
      return h;
    }
    try {
      return java.net.InetAddress.getLocalHost().getHostName();
    } catch (java.net.UnknownHostException e) {
      return "";
    }
  }
}
