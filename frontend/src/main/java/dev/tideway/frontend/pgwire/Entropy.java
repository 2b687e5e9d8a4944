package dev.tideway.frontend.pgwire;

import java.security.SecureRandom;

/**
 * Unpredictable bytes for nonces, salts and cancel keys. These must not come from a seeded source
 * (a guessable cancel key lets anyone cancel queries), so this is the protocol's one seam for them;
 * tests may pass a fixed one.
 */
public interface Entropy {
  void fill(byte[] bytes);

  /** The platform's secure random generator. */
  static Entropy secure() {
    SecureRandom r = new SecureRandom();
    return r::nextBytes;
  }
}
