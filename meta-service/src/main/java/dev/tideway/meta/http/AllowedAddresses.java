package dev.tideway.meta.http;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * The client addresses the job page's actions (throttle, cancel) are accepted from: a list of IP
 * addresses and CIDR blocks ({@code 127.0.0.0/8}, {@code ::1}, {@code 10.1.0.0/16}, {@code
 * fd00::/8}), from {@code tideway.meta.http.control-allowed} (environment twin {@code
 * TIDEWAY_META_HTTP_CONTROL_ALLOWED}). Only literal addresses: a host name would need a DNS lookup
 * and could change meaning later. An IPv4 address never matches an IPv6 block or the reverse.
 * Immutable.
 */
public final class AllowedAddresses implements Predicate<InetAddress> {
  /** The default: loopback only (the meta host's own browser). */
  public static final List<String> LOOPBACK = List.of("127.0.0.0/8", "::1");

  private static final Pattern LITERAL = Pattern.compile("[0-9a-fA-F:.]+");

  private record Block(byte[] prefix, int bits) {
    boolean contains(byte[] address) {
      if (address.length != prefix.length) {
        return false;
      }
      for (int i = 0; i < bits; i++) {
        int mask = 0x80 >>> (i % 8);
        if ((address[i / 8] & mask) != (prefix[i / 8] & mask)) {
          return false;
        }
      }
      return true;
    }
  }

  private final List<Block> blocks;
  private final List<String> entries;

  private AllowedAddresses(List<Block> blocks, List<String> entries) {
    this.blocks = blocks;
    this.entries = entries;
  }

  /**
   * Parses {@code entries}; fails naming the first that is not an IP address or a CIDR block. An
   * empty list allows no address (the actions are off).
   */
  public static AllowedAddresses parse(List<String> entries) {
    List<Block> blocks = new ArrayList<>();
    for (String raw : entries) {
      String e = raw.trim();
      int slash = e.indexOf('/');
      String host = slash < 0 ? e : e.substring(0, slash);
      if (!LITERAL.matcher(host).matches() || !host.matches(".*[.:].*")) {
        throw new IllegalArgumentException(
            "control-allowed entry '" + raw + "' is not an IP address or a CIDR block");
      }
      byte[] prefix;
      try {
        prefix = InetAddress.getByName(host).getAddress();
      } catch (UnknownHostException ex) {
        throw new IllegalArgumentException(
            "control-allowed entry '" + raw + "' is not an IP address or a CIDR block", ex);
      }
      int bits = prefix.length * 8;
      if (slash >= 0) {
        try {
          bits = Integer.parseInt(e.substring(slash + 1));
        } catch (NumberFormatException ex) {
          bits = -1;
        }
        if (bits < 0 || bits > prefix.length * 8) {
          throw new IllegalArgumentException(
              "control-allowed entry '"
                  + raw
                  + "': the prefix length must be 0.."
                  + prefix.length * 8);
        }
      }
      blocks.add(new Block(prefix, bits));
    }
    return new AllowedAddresses(List.copyOf(blocks), List.copyOf(entries));
  }

  @Override
  public boolean test(InetAddress address) {
    byte[] a = address.getAddress();
    for (Block b : blocks) {
      if (b.contains(a)) {
        return true;
      }
    }
    return false;
  }

  @Override
  public String toString() {
    return "AllowedAddresses" + entries;
  }
}
