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
public record PgAuth(Method method, Map<String, String> passwords, Users users) {

  /** The users {@link Method#CATALOG} checks against. */
  public interface Users {
    /** Empty when no such user; else its SCRAM verifier, or empty text when it has no password. */
    java.util.Optional<String> verifier(String user);
  }

  public PgAuth(Method method, Map<String, String> passwords) {
    this(method, passwords, null);
  }

  /** Users and their SCRAM verifiers from {@code users} (the catalog's). */
  public static PgAuth catalog(Users users) {
    return new PgAuth(Method.CATALOG, Map.of(), users);
  }

  /** PostgreSQL's stored form of {@code password} with a fresh random salt. */
  public static String scramVerifier(String password) {
    byte[] salt = new byte[16];
    new java.security.SecureRandom().nextBytes(salt);
    return Scram.verifier(password, salt);
  }

  /** Whether a password was given already in its stored form. */
  public static boolean isScramVerifier(String s) {
    return Scram.isVerifier(s);
  }

  /** The authentication exchange. */
  public enum Method {
    /**
     * Users come from the catalog ({@link #users}): a user with a stored SCRAM verifier must prove
     * its password (SCRAM-SHA-256), one without is trusted, and a name that is no user is refused
     * ({@code 28000}), as PostgreSQL's {@code role "x" does not exist}.
     */
    CATALOG,
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
