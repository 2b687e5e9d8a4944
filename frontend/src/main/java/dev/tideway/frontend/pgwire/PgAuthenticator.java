package dev.tideway.frontend.pgwire;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Optional;

/**
 * Runs one connection's authentication exchange per {@link PgAuth} and sends {@code
 * AuthenticationOk} when it succeeds. Wrong passwords and unknown users both end in FATAL {@code
 * 28P01} naming the user, after a full exchange (an unknown user's SCRAM salt is derived from its
 * name, so probing does not reveal which users exist).
 *
 * <p>Thread confinement: the connection's thread, during startup only.
 */
final class PgAuthenticator {
  private static final int AUTH_OK = 0;
  private static final int AUTH_CLEARTEXT = 3;
  private static final int AUTH_MD5 = 5;
  private static final int AUTH_SASL = 10;
  private static final int AUTH_SASL_CONTINUE = 11;
  private static final int AUTH_SASL_FINAL = 12;

  private final PgAuth auth;
  private final Entropy entropy;
  private final PgReader reader;
  private final PgWriter writer;

  PgAuthenticator(PgAuth auth, Entropy entropy, PgReader reader, PgWriter writer) {
    this.auth = auth;
    this.entropy = entropy;
    this.reader = reader;
    this.writer = writer;
  }

  /** True when authenticated; false when the client hung up (psql's password probe). */
  boolean authenticate(String user) throws IOException {
    String password = auth.passwords().get(user);
    boolean ok;
    switch (auth.method()) {
      case TRUST -> ok = true;
      case CATALOG -> {
        Optional<String> verifier = auth.users().verifier(user);
        if (verifier.isEmpty()) {
          throw PgException.fatal(
              SqlState.INVALID_AUTHORIZATION, "role \"" + user + "\" does not exist");
        }
        if (verifier.get().isEmpty()) {
          ok = true;
        } else {
          Optional<Boolean> r = scramWith(Scram.fromVerifier(verifier.get(), nonce()));
          if (r.isEmpty()) {
            return false;
          }
          ok = r.get();
        }
      }
      case CLEARTEXT -> {
        writer.begin('R').putInt(AUTH_CLEARTEXT).end();
        PgBuffer p = password();
        if (p == null) {
          return false;
        }
        String given = p.getCString();
        ok = password != null && MessageDigest.isEqual(bytes(given), bytes(password));
      }
      case MD5 -> {
        byte[] salt = new byte[4];
        entropy.fill(salt);
        writer.begin('R').putInt(AUTH_MD5).putBytes(salt).end();
        PgBuffer p = password();
        if (p == null) {
          return false;
        }
        String given = p.getCString();
        ok =
            password != null
                && MessageDigest.isEqual(bytes(given), bytes(md5Answer(user, password, salt)));
      }
      case SCRAM_SHA_256 -> {
        Optional<Boolean> r = scram(user, password);
        if (r.isEmpty()) {
          return false;
        }
        ok = r.get();
      }
      default -> throw new IllegalStateException("unknown auth method " + auth.method());
    }
    if (!ok) {
      throw PgException.fatal(
          SqlState.INVALID_PASSWORD, "password authentication failed for user \"" + user + "\"");
    }
    writer.begin('R').putInt(AUTH_OK).end();
    return true;
  }

  /** The client's answer ('p' message); null when it hung up. */
  private PgBuffer password() throws IOException {
    writer.flush();
    PgReader.Message m = reader.readMessage();
    if (m == null) {
      return null;
    }
    if (m.type() != 'p') {
      throw PgException.protocol("expected password response, got message type " + (int) m.type());
    }
    return m.body();
  }

  private Optional<Boolean> scram(String user, String password) throws IOException {
    return scramWith(Optional.of(new Scram(password, salt(user, password), nonce())));
  }

  /**
   * Runs the SCRAM exchange with {@code exchange}; an empty one (a malformed stored verifier) runs
   * against a mock that no proof matches.
   */
  private Optional<Boolean> scramWith(Optional<Scram> exchange) throws IOException {
    writer.begin('R').putInt(AUTH_SASL).putCString("SCRAM-SHA-256").putByte(0).end();
    PgBuffer first = password();
    if (first == null) {
      return Optional.empty();
    }
    String mechanism = first.getCString();
    if (!mechanism.equals("SCRAM-SHA-256")) {
      throw PgException.protocol("client selected an invalid SASL authentication mechanism");
    }
    int len = first.getInt();
    String clientFirst = new String(first.getBytes(len), StandardCharsets.UTF_8);
    Scram scram = exchange.orElseGet(() -> new Scram(null, salt("", null), nonce()));
    String serverFirst = scram.serverFirst(clientFirst);
    writer.begin('R').putInt(AUTH_SASL_CONTINUE).putBytes(bytes(serverFirst)).end();
    PgBuffer fin = password();
    if (fin == null) {
      return Optional.empty();
    }
    Optional<String> serverFinal =
        scram.serverFinal(new String(fin.rest(), StandardCharsets.UTF_8));
    if (serverFinal.isEmpty()) {
      return Optional.of(false);
    }
    writer.begin('R').putInt(AUTH_SASL_FINAL).putBytes(bytes(serverFinal.get())).end();
    return Optional.of(true);
  }

  /** A per-user salt: derived from the name (and password) so that it is stable per server. */
  private static byte[] salt(String user, String password) {
    byte[] h = Scram.sha256(bytes("tideway-scram-salt:" + user + ":" + (password != null)));
    byte[] salt = new byte[16];
    System.arraycopy(h, 0, salt, 0, 16);
    return salt;
  }

  private String nonce() {
    byte[] b = new byte[18];
    entropy.fill(b);
    return Base64.getEncoder().encodeToString(b);
  }

  /** {@code "md5" + md5hex(md5hex(password + user) + salt)}, what the client sends. */
  static String md5Answer(String user, String password, byte[] salt) {
    String inner = md5Hex(bytes(password + user));
    byte[] innerBytes = bytes(inner);
    byte[] withSalt = new byte[innerBytes.length + salt.length];
    System.arraycopy(innerBytes, 0, withSalt, 0, innerBytes.length);
    System.arraycopy(salt, 0, withSalt, innerBytes.length, salt.length);
    return "md5" + md5Hex(withSalt);
  }

  private static String md5Hex(byte[] data) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(data));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException("MD5 unavailable", e);
    }
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
