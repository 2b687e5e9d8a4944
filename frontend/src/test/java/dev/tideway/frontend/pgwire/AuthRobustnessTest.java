package dev.tideway.frontend.pgwire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Failed and malformed authentication: each bad client gets an ErrorResponse with the right
 * SQLSTATE and loses only its own connection, while other clients keep being served at the same
 * time.
 */
class AuthRobustnessTest {
  private PgServer server;

  private int start(PgAuth.Method method, int maxMessage) throws IOException {
    server =
        new PgServer(
            PgServerConfig.defaults(0)
                .withAuth(new PgAuth(method, Map.of("alice", "s3cret")))
                .withMaxMessageBytes(maxMessage),
            ScriptedSession.factory());
    return server.start();
  }

  @AfterEach
  void stop() throws IOException {
    server.close();
  }

  private static long select(Statement st, long v) throws SQLException {
    try (ResultSet rs = st.executeQuery("select " + v)) {
      assertThat(rs.next()).isTrue();
      return rs.getLong(1);
    }
  }

  @ParameterizedTest
  @EnumSource(
      value = PgAuth.Method.class,
      names = {"SCRAM_SHA_256", "MD5"})
  void wrongPasswordsFromManyClientsAtOnceDoNotDisturbAnAuthenticatedOne(PgAuth.Method method)
      throws Exception {
    int port = start(method, 1 << 20);
    try (Connection good = PgServerTest.connect(port, "alice", "s3cret");
        Statement st = good.createStatement()) {
      List<CompletableFuture<String>> attackers = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        String user = i % 2 == 0 ? "alice" : "nobody" + i;
        String password = "wrong" + i;
        attackers.add(
            CompletableFuture.supplyAsync(
                () -> {
                  try {
                    PgServerTest.connect(port, user, password).close();
                    return "connected with a wrong password";
                  } catch (SQLException e) {
                    return e.getSQLState() + " " + e.getMessage();
                  }
                }));
      }
      for (int q = 0; q < 20; q++) {
        assertThat(select(st, q)).isEqualTo(q);
      }
      for (CompletableFuture<String> a : attackers) {
        assertThat(a.get(30, TimeUnit.SECONDS))
            .startsWith("28P01 FATAL: password authentication failed for user");
      }
      assertThat(select(st, 99)).as("still served after every failure").isEqualTo(99);
    }
    try (Connection again = PgServerTest.connect(port, "alice", "s3cret")) {
      assertThat(again.isValid(2)).isTrue();
    }
  }

  /** Startup as alice on a raw socket; returns the server's first authentication request. */
  private static RawClient.Reply rawStartup(RawClient c) throws IOException {
    c.startup("alice", "dev");
    RawClient.Reply r = c.read();
    assertThat(r.type()).isEqualTo('R');
    return r;
  }

  private static byte[] saslInitial(String mechanism, int declaredLength, byte[] data)
      throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    DataOutputStream d = new DataOutputStream(b);
    d.write(mechanism.getBytes(StandardCharsets.UTF_8));
    d.write(0);
    d.writeInt(declaredLength);
    d.write(data);
    return b.toByteArray();
  }

  private static RawClient.Reply error(RawClient c) throws IOException {
    RawClient.Reply r;
    do {
      r = c.read();
    } while (r.type() != 'E');
    return r;
  }

  @Test
  void malformedScramExchangesGetProtocolViolationAndOthersAreServed() throws Exception {
    int port = start(PgAuth.Method.SCRAM_SHA_256, 1 << 20);
    try (Connection good = PgServerTest.connect(port, "alice", "s3cret");
        Statement st = good.createStatement()) {
      byte[] first = "n,,n=,r=abcdefghijklmnop".getBytes(StandardCharsets.UTF_8);
      // a SASLInitialResponse whose declared length runs past the message
      try (RawClient c = new RawClient(port)) {
        rawStartup(c);
        c.send('p', saslInitial("SCRAM-SHA-256", 100, new byte[] {'n', ',', ','}));
        RawClient.Reply e = error(c);
        assertThat(e.sqlState()).isEqualTo("08P01");
      }
      // a mechanism the server did not offer
      try (RawClient c = new RawClient(port)) {
        rawStartup(c);
        c.send('p', saslInitial("SCRAM-SHA-1", first.length, first));
        RawClient.Reply e = error(c);
        assertThat(e.sqlState()).isEqualTo("08P01");
        assertThat(e.text()).contains("invalid SASL authentication mechanism");
      }
      // channel binding requested, then a client-final with someone else's nonce
      try (RawClient c = new RawClient(port)) {
        rawStartup(c);
        byte[] binding = "p=tls-server-end-point,,n=,r=abc".getBytes(StandardCharsets.UTF_8);
        c.send('p', saslInitial("SCRAM-SHA-256", binding.length, binding));
        assertThat(error(c).text()).contains("channel binding is not supported");
      }
      try (RawClient c = new RawClient(port)) {
        rawStartup(c);
        c.send('p', saslInitial("SCRAM-SHA-256", first.length, first));
        assertThat(c.read().type()).isEqualTo('R'); // SASLContinue
        c.send('p', "c=biws,r=notyournonce,p=AAAA".getBytes(StandardCharsets.UTF_8));
        RawClient.Reply e = error(c);
        assertThat(e.sqlState()).isEqualTo("08P01");
        assertThat(e.text()).contains("nonce does not match");
      }
      // a query instead of a password
      try (RawClient c = new RawClient(port)) {
        rawStartup(c);
        c.query("select 1");
        assertThat(error(c).sqlState()).isEqualTo("08P01");
      }
      assertThat(select(st, 7)).isEqualTo(7);
    }
  }

  @Test
  void md5WrongHashAndOversizedPasswordMessage() throws Exception {
    int port = start(PgAuth.Method.MD5, 256);
    try (Connection good = PgServerTest.connect(port, "alice", "s3cret");
        Statement st = good.createStatement()) {
      try (RawClient c = new RawClient(port)) {
        rawStartup(c);
        c.send('p', "md500000000000000000000000000000000\0".getBytes(StandardCharsets.UTF_8));
        RawClient.Reply e = error(c);
        assertThat(e.sqlState()).isEqualTo("28P01");
        assertThat(e.text()).contains("password authentication failed for user \"alice\"");
      }
      try (RawClient c = new RawClient(port)) {
        rawStartup(c);
        c.send('p', ("md5" + "0".repeat(1000) + "\0").getBytes(StandardCharsets.UTF_8));
        RawClient.Reply e = error(c);
        assertThat(e.sqlState()).isEqualTo("54000");
        assertThat(e.text()).contains("256").contains("raise the frontend's max message size");
      }
      assertThat(select(st, 8)).isEqualTo(8);
    }
    assertThatThrownBy(() -> PgServerTest.connect(port, "alice", "").close())
        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isIn("28P01", "08004"));
  }
}
