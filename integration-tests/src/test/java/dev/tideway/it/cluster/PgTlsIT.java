package dev.tideway.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tideway.cli.cluster.Playground;
import dev.tideway.common.time.Clock;
import dev.tideway.frontend.pgwire.PgTls;
import java.io.File;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Base64;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLS on the PostgreSQL port: a playground given a certificate and key answers SSLRequest with S;
 * psql verifying the certificate against it as its root connects, pgJDBC with sslmode=require
 * connects, a client that does not ask for TLS still connects in the clear, and a key in the wrong
 * form is refused at start with a message saying how to convert it. The certificate is made by the
 * JDK's keytool.
 */
class PgTlsIT {
  @TempDir Path dir;

  @Test
  void clientsConnectOverTlsWhenACertificateIsConfigured() throws Exception {
    Path cert = dir.resolve("server.crt");
    Path key = dir.resolve("server.key");
    selfSigned(cert, key);
    Playground.Options o =
        PlaygroundIT.options(dir.resolve("data")).withPgTls(PgTls.serverContext(cert, key));
    try (Playground p = Playground.start(o, Clock.system())) {
      String url = "jdbc:postgresql://127.0.0.1:" + p.pgPort() + "/dev?user=root";
      try (Connection c = DriverManager.getConnection(url + "&sslmode=require");
          Statement st = c.createStatement()) {
        st.execute("CREATE TABLE tls_t (k INT PRIMARY KEY)");
        st.execute("INSERT INTO tls_t VALUES (1), (2)");
        st.execute("FLUSH");
        try (ResultSet rs = st.executeQuery("SELECT count(*) FROM tls_t")) {
          assertThat(rs.next()).isTrue();
          assertThat(rs.getLong(1)).isEqualTo(2);
        }
      }
      try (Connection c = DriverManager.getConnection(url + "&sslmode=disable");
          Statement st = c.createStatement();
          ResultSet rs = st.executeQuery("SELECT count(*) FROM tls_t")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getLong(1)).as("in the clear too").isEqualTo(2);
      }
      String psql = psql();
      if (psql != null) {
        Process pr =
            new ProcessBuilder(
                    psql,
                    "-X",
                    "-At",
                    "host=127.0.0.1 port="
                        + p.pgPort()
                        + " user=root dbname=dev sslmode=verify-ca sslrootcert="
                        + cert,
                    "-c",
                    "SELECT count(*) FROM tls_t")
                .redirectErrorStream(true)
                .start();
        String out = new String(pr.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(pr.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(pr.exitValue()).as(out).isZero();
        assertThat(out.strip()).isEqualTo("2");
      }
    }
  }

  @Test
  void aKeyInTheWrongFormIsRefusedWithHowToConvertIt() throws Exception {
    Path cert = dir.resolve("server.crt");
    Path key = dir.resolve("server.key");
    selfSigned(cert, key);
    Path pkcs1 = dir.resolve("rsa.key");
    Files.writeString(
        pkcs1, "-----BEGIN RSA PRIVATE KEY-----\nAAAA\n-----END RSA PRIVATE KEY-----\n");
    assertThatThrownBy(() -> PgTls.serverContext(cert, pkcs1))
        .hasMessageContaining("openssl pkcs8 -topk8 -nocrypt");
    assertThatThrownBy(() -> PgTls.serverContext(key, key)).hasMessageContaining("cannot be used");
  }

  /** A self-signed RSA certificate for 127.0.0.1 by keytool, written as PEM files. */
  private void selfSigned(Path cert, Path key) throws Exception {
    Path ks = dir.resolve("server.p12");
    String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
    Process p =
        new ProcessBuilder(
                keytool,
                "-genkeypair",
                "-alias",
                "server",
                "-keyalg",
                "RSA",
                "-keysize",
                "2048",
                "-dname",
                "CN=127.0.0.1",
                "-ext",
                "SAN=IP:127.0.0.1",
                "-validity",
                "2",
                "-storetype",
                "PKCS12",
                "-keystore",
                ks.toString(),
                "-storepass",
                "changeit")
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(out).isZero();
    KeyStore store = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(ks)) {
      store.load(in, "changeit".toCharArray());
    }
    PrivateKey pk = (PrivateKey) store.getKey("server", "changeit".toCharArray());
    Certificate c = store.getCertificate("server");
    Files.writeString(cert, pem("CERTIFICATE", c.getEncoded()));
    Files.writeString(key, pem("PRIVATE KEY", pk.getEncoded()));
  }

  private static String pem(String type, byte[] der) {
    return "-----BEGIN "
        + type
        + "-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
        + "\n-----END "
        + type
        + "-----\n";
  }

  private static String psql() {
    for (String d : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      File f = new File(d, "psql");
      if (f.canExecute()) {
        return f.getPath();
      }
    }
    return null;
  }
}
