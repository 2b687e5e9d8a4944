package dev.tideway.frontend.pgwire;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * TLS on the pgwire port, as PostgreSQL's {@code ssl_cert_file} / {@code ssl_key_file}: a PEM
 * certificate chain and a PEM PKCS#8 private key (RSA or EC). A client's {@code SSLRequest} is
 * answered {@code S} and the connection continues over TLS; without a certificate it is answered
 * {@code N} and the client may go on in the clear.
 */
public final class PgTls {
  private PgTls() {}

  /**
   * The TLS context the configuration asks for: {@code certFlag}/{@code keyFlag} when given (the
   * command line), else {@code tideway.frontend.pg.tls-cert}/{@code tls-key}; null when neither
   * names a certificate. Both or neither must be set.
   */
  public static SSLContext configured(
      dev.tideway.common.config.TidewayConfig config, String certFlag, String keyFlag) {
    String cert = certFlag != null ? certFlag : config.getString("tideway.frontend.pg.tls-cert");
    String key = keyFlag != null ? keyFlag : config.getString("tideway.frontend.pg.tls-key");
    if (cert.isBlank() && key.isBlank()) {
      return null;
    }
    if (cert.isBlank() || key.isBlank()) {
      throw new IllegalArgumentException(
          "TLS needs both a certificate and a key (tideway.frontend.pg.tls-cert and tls-key, or"
              + " --pg-tls-cert and --pg-tls-key); got only the "
              + (cert.isBlank() ? "key" : "certificate"));
    }
    return serverContext(Path.of(cert), Path.of(key));
  }

  /** The server context for {@code cert} and {@code key}; a clear error names a bad file. */
  public static SSLContext serverContext(Path cert, Path key) {
    try {
      List<? extends Certificate> chain = certificates(cert);
      PrivateKey pk = privateKey(key);
      KeyStore ks = KeyStore.getInstance("PKCS12");
      ks.load(null, null);
      char[] pass = new char[0];
      ks.setKeyEntry("server", pk, pass, chain.toArray(new Certificate[0]));
      KeyManagerFactory kmf =
          KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      kmf.init(ks, pass);
      SSLContext ctx = SSLContext.getInstance("TLS");
      ctx.init(kmf.getKeyManagers(), null, null);
      return ctx;
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalArgumentException(
          "TLS certificate " + cert + " / key " + key + " cannot be used: " + e.getMessage(), e);
    }
  }

  /**
   * The server side of a TLS handshake on {@code plain}, after the client's SSLRequest was answered
   * {@code S}: the connection goes on through the returned socket (nothing was read past the
   * request, the reader buffers nothing ahead).
   */
  static java.net.Socket accept(SSLContext ctx, java.net.Socket plain) throws IOException {
    javax.net.ssl.SSLSocket tls =
        (javax.net.ssl.SSLSocket)
            ctx.getSocketFactory()
                .createSocket(
                    plain, plain.getInetAddress().getHostAddress(), plain.getPort(), true);
    tls.setUseClientMode(false);
    tls.startHandshake();
    return tls;
  }

  private static List<? extends Certificate> certificates(Path file)
      throws IOException, GeneralSecurityException {
    byte[] pem = Files.readAllBytes(file);
    List<? extends Certificate> chain =
        List.copyOf(
            CertificateFactory.getInstance("X.509")
                .generateCertificates(new ByteArrayInputStream(pem)));
    if (chain.isEmpty()) {
      throw new GeneralSecurityException("no certificate in " + file);
    }
    return chain;
  }

  private static PrivateKey privateKey(Path file) throws IOException, GeneralSecurityException {
    String pem = Files.readString(file, StandardCharsets.US_ASCII);
    if (pem.contains("BEGIN RSA PRIVATE KEY") || pem.contains("BEGIN EC PRIVATE KEY")) {
      throw new GeneralSecurityException(
          file
              + " holds a PKCS#1/SEC1 key; convert it to PKCS#8: openssl pkcs8 -topk8 -nocrypt -in "
              + file.getFileName());
    }
    int begin = pem.indexOf("-----BEGIN PRIVATE KEY-----");
    int end = pem.indexOf("-----END PRIVATE KEY-----");
    if (begin < 0 || end < begin) {
      throw new GeneralSecurityException("no unencrypted PKCS#8 PEM private key in " + file);
    }
    String body = pem.substring(begin + "-----BEGIN PRIVATE KEY-----".length(), end);
    byte[] der = Base64.getMimeDecoder().decode(body);
    PKCS8EncodedKeySpec spec = new PKCS8EncodedKeySpec(der);
    GeneralSecurityException last = null;
    for (String alg : List.of("RSA", "EC", "Ed25519")) {
      try {
        return KeyFactory.getInstance(alg).generatePrivate(spec);
      } catch (GeneralSecurityException e) {
        last = e;
      }
    }
    throw new GeneralSecurityException("unsupported private key in " + file, last);
  }
}
