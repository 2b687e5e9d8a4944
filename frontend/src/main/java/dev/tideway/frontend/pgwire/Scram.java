package dev.tideway.frontend.pgwire;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The server side of one SCRAM-SHA-256 exchange (RFC 5802/7677, without channel binding), as
 * PostgreSQL runs it: GS2 header {@code n,,} or {@code y,,}, the {@code n=} user name ignored, any
 * printable client nonce accepted.
 *
 * <p>States: created → {@link #serverFirst} → {@link #serverFinal}; each step may be called once,
 * in order. An unknown user runs the same exchange against a mock verifier so that existence is not
 * leaked; it fails at the proof like a wrong password.
 */
final class Scram {
  static final int ITERATIONS = 4096;

  private final byte[] storedKey;
  private final byte[] serverKey;
  private final byte[] salt;
  private final String serverNonce;
  private String clientFirstBare;
  private String serverFirst;
  private String gs2Header;
  private String nonce;

  /**
   * @param password the user's password, or null for an unknown user (always fails)
   * @param salt the salt (random per user, or derived from the name for unknown users)
   * @param serverNonce the server's nonce part (printable, no commas)
   */
  Scram(String password, byte[] salt, String serverNonce) {
    this.salt = salt.clone();
    this.serverNonce = serverNonce;
    byte[] salted = saltedPassword(password == null ? serverNonce : password, salt, ITERATIONS);
    byte[] clientKey = hmac(salted, "Client Key");
    this.storedKey = sha256(clientKey);
    this.serverKey = hmac(salted, "Server Key");
    if (password == null) {
      storedKey[0] ^= 1; // no proof can match
    }
  }

  /**
   * An exchange against a stored verifier ({@link #verifier}'s form): the password itself is not
   * kept anywhere.
   */
  private Scram(byte[] storedKey, byte[] serverKey, byte[] salt, String serverNonce) {
    this.storedKey = storedKey;
    this.serverKey = serverKey;
    this.salt = salt;
    this.serverNonce = serverNonce;
  }

  /** An exchange for a user whose verifier is {@code verifier}; empty when it is malformed. */
  static Optional<Scram> fromVerifier(String verifier, String serverNonce) {
    java.util.regex.Matcher m = VERIFIER.matcher(verifier);
    if (!m.matches() || Integer.parseInt(m.group(1)) != ITERATIONS) {
      return Optional.empty();
    }
    Base64.Decoder d = Base64.getDecoder();
    try {
      return Optional.of(
          new Scram(d.decode(m.group(3)), d.decode(m.group(4)), d.decode(m.group(2)), serverNonce));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  private static final java.util.regex.Pattern VERIFIER =
      java.util.regex.Pattern.compile("SCRAM-SHA-256\\$(\\d+):([^$]+)\\$([^:]+):(.+)");

  /**
   * PostgreSQL's stored form of a password ({@code pg_authid.rolpassword}): {@code
   * SCRAM-SHA-256$4096:salt$StoredKey:ServerKey}, each part base64.
   */
  static String verifier(String password, byte[] salt) {
    byte[] salted = saltedPassword(password, salt, ITERATIONS);
    byte[] stored = sha256(hmac(salted, "Client Key"));
    byte[] server = hmac(salted, "Server Key");
    Base64.Encoder e = Base64.getEncoder();
    return "SCRAM-SHA-256$"
        + ITERATIONS
        + ":"
        + e.encodeToString(salt)
        + "$"
        + e.encodeToString(stored)
        + ":"
        + e.encodeToString(server);
  }

  /** Whether {@code s} is already a verifier (a password given pre-hashed, as pg_dump writes). */
  static boolean isVerifier(String s) {
    return VERIFIER.matcher(s).matches();
  }

  /** Parses the client-first message and returns the server-first message. */
  String serverFirst(String clientFirst) {
    if (serverFirst != null) {
      throw malformed("client-first message sent twice");
    }
    if (!(clientFirst.startsWith("n,") || clientFirst.startsWith("y,"))) {
      throw malformed("channel binding is not supported, got GS2 header of " + quote(clientFirst));
    }
    int second = clientFirst.indexOf(',', 2);
    if (second != 2) {
      throw malformed("an authorization identity is not supported");
    }
    gs2Header = clientFirst.substring(0, 3);
    clientFirstBare = clientFirst.substring(3);
    String clientNonce = attribute(clientFirstBare, 'r');
    for (char c : clientNonce.toCharArray()) {
      if (c < 0x21 || c > 0x7e || c == ',') {
        throw malformed("invalid character in client nonce");
      }
    }
    nonce = clientNonce + serverNonce;
    serverFirst =
        "r=" + nonce + ",s=" + Base64.getEncoder().encodeToString(salt) + ",i=" + ITERATIONS;
    return serverFirst;
  }

  /**
   * Checks the client-final message; the server-final message ({@code v=...}) when the proof is
   * right, empty when the password is wrong (or the user unknown).
   */
  Optional<String> serverFinal(String clientFinal) {
    if (serverFirst == null) {
      throw malformed("client-final message before client-first");
    }
    int proofAt = clientFinal.lastIndexOf(",p=");
    if (proofAt < 0) {
      throw malformed("missing proof");
    }
    String withoutProof = clientFinal.substring(0, proofAt);
    String binding = attribute(withoutProof, 'c');
    String expectedBinding =
        Base64.getEncoder().encodeToString(gs2Header.getBytes(StandardCharsets.US_ASCII));
    if (!binding.equals(expectedBinding)) {
      throw malformed("unexpected channel binding " + quote(binding));
    }
    if (!attribute(withoutProof, 'r').equals(nonce)) {
      throw malformed("nonce does not match");
    }
    byte[] proof;
    try {
      proof = Base64.getDecoder().decode(clientFinal.substring(proofAt + 3));
    } catch (IllegalArgumentException e) {
      throw malformed("proof is not base64");
    }
    String authMessage = clientFirstBare + "," + serverFirst + "," + withoutProof;
    byte[] signature = hmac(storedKey, authMessage);
    if (proof.length != signature.length) {
      return Optional.empty();
    }
    byte[] clientKey = new byte[proof.length];
    for (int i = 0; i < proof.length; i++) {
      clientKey[i] = (byte) (proof[i] ^ signature[i]);
    }
    if (!MessageDigest.isEqual(sha256(clientKey), storedKey)) {
      return Optional.empty();
    }
    return Optional.of("v=" + Base64.getEncoder().encodeToString(hmac(serverKey, authMessage)));
  }

  private static String attribute(String message, char name) {
    for (String part : message.split(",")) {
      if (part.length() >= 2 && part.charAt(0) == name && part.charAt(1) == '=') {
        return part.substring(2);
      }
    }
    throw malformed("missing attribute '" + name + "'");
  }

  private static String quote(String s) {
    return "\"" + (s.length() > 20 ? s.substring(0, 20) + "..." : s) + "\"";
  }

  private static PgException malformed(String why) {
    return PgException.protocol("malformed SCRAM message: " + why);
  }

  static byte[] saltedPassword(String password, byte[] salt, int iterations) {
    try {
      PBEKeySpec spec = new PBEKeySpec(password.toCharArray(), salt, iterations, 256);
      return SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256").generateSecret(spec).getEncoded();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("PBKDF2WithHmacSHA256 unavailable", e);
    }
  }

  static byte[] hmac(byte[] key, String message) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return mac.doFinal(message.getBytes(StandardCharsets.UTF_8));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 unavailable", e);
    }
  }

  static byte[] sha256(byte[] data) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(data);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("SHA-256 unavailable", e);
    }
  }
}
