package dev.tideway.frontend.pgwire;

import java.util.Map;

/**
 * How connections authenticate: {@code TRUST} (no password; the default, as RisingWave's
 * playground: user {@code root}, database {@code dev}), or a password checked with {@code
 * CLEARTEXT}, {@code MD5} or {@code SCRAM-SHA-256}.
 *
 * @param method the exchange
 * @param passwords user name to clear-text password; ignored by TRUST, which admits any user
 */
public record PgAuth(Method method, Map<String, String> passwords) {

  /** The authentication exchange. */
  public enum Method {
    TRUST,
    CLEARTEXT,
    MD5,
    SCRAM_SHA_256
  }

  public PgAuth {
    passwords = Map.copyOf(passwords);
  }

  /** Any user, no password. */
  public static PgAuth trust() {
    return new PgAuth(Method.TRUST, Map.of());
  }

  /** SCRAM-SHA-256 (PostgreSQL's default when a password is set). */
  public static PgAuth scram(Map<String, String> passwords) {
    return new PgAuth(Method.SCRAM_SHA_256, passwords);
  }
}
