package dev.tideway.frontend.pgwire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class PgServerTest {
  private PgServer server;

  private int start(PgAuth auth, int maxMessage) throws IOException {
    server =
        new PgServer(
            PgServerConfig.defaults(0).withAuth(auth).withMaxMessageBytes(maxMessage),
            ScriptedSession.factory());
    return server.start();
  }

  @AfterEach
  void stop() throws IOException {
    server.close();
  }

  private static String sqlState(RawClient.Reply r) {
    return r.sqlState();
  }

  @Test
  void sslAndGssRequestsAreRefusedWithNAndStartupContinuesOnTheSameSocket() throws IOException {
    int port = start(PgAuth.trust(), 1 << 20);
    try (RawClient c = new RawClient(port)) {
      c.out.writeInt(8);
      c.out.writeInt(PgConnection.SSL_REQUEST);
      c.out.flush();
      assertThat(c.in.read()).isEqualTo('N');
      c.out.writeInt(8);
      c.out.writeInt(PgConnection.GSSENC_REQUEST);
      c.out.flush();
      assertThat(c.in.read()).isEqualTo('N');
      c.startup("root", "dev");
      List<RawClient.Reply> replies = c.readUntilReady();
      // AuthenticationOk, 13 ParameterStatus, BackendKeyData, ReadyForQuery
      assertThat(RawClient.types(replies)).isEqualTo("R" + "S".repeat(13) + "KZ");
      assertThat(replies.stream().map(RawClient.Reply::text))
          .anyMatch(t -> t.startsWith("server_version\u000013.14.0"))
          .anyMatch(t -> t.startsWith("integer_datetimes\u0000on"));
      c.query("select 7; select 8");
      assertThat(RawClient.types(c.readUntilReady())).isEqualTo("TDCTDCZ");
    }
  }

  @Test
  void pipelinedExtendedMessagesInOneWriteAndErrorSkipsToSync() throws IOException {
    int port = start(PgAuth.trust(), 1 << 20);
    try (RawClient c = new RawClient(port)) {
      c.startup("root", "dev");
      c.readUntilReady();
      byte[] ok = Messages.parseBindDescribeExecute("select 5");
      byte[] bad = Messages.parseBindDescribeExecute("fail");
      byte[] all = Messages.concat(ok, Messages.sync(), bad, Messages.sync(), ok, Messages.sync());
      c.out.write(all);
      c.out.flush();
      assertThat(RawClient.types(c.readUntilReady())).isEqualTo("12TDCZ");
      List<RawClient.Reply> err = c.readUntilReady();
      assertThat(RawClient.types(err)).isEqualTo("EZ");
      assertThat(err.get(0).sqlState()).isEqualTo("42P01");
      assertThat(RawClient.types(c.readUntilReady())).isEqualTo("12TDCZ");
    }
  }

  @Test
  void malformedTruncatedAndOversizedMessagesEndOnlyThatConnection() throws Exception {
    int port = start(PgAuth.trust(), 1024);
    try (RawClient good = new RawClient(port)) {
      good.startup("root", "dev");
      good.readUntilReady();
      // unknown message type
      try (RawClient c = ready(port)) {
        c.send('Y', new byte[0]);
        RawClient.Reply r = c.read();
        assertThat(r.type()).isEqualTo('E');
        assertThat(r.text()).contains("FATAL").contains("invalid frontend message type 89");
        assertThat(r.sqlState()).isEqualTo("08P01");
      }
      // Bind whose body ends in the middle of a parameter
      try (RawClient c = ready(port)) {
        c.send('P', "\0select 1\0\0\0".getBytes(StandardCharsets.UTF_8));
        c.send('B', new byte[] {0, 0, 0, 0, 0, 1, 0, 0, 0, 9, 'x'});
        c.send('S', new byte[0]);
        RawClient.Reply r = c.read();
        assertThat(r.type()).isEqualTo('1');
        r = c.read();
        assertThat(r.type()).isEqualTo('E');
        assertThat(r.sqlState()).isEqualTo("08P01");
      }
      // over the message size limit
      try (RawClient c = ready(port)) {
        c.query("select 1 " + "x".repeat(2000));
        RawClient.Reply r = c.read();
        assertThat(r.sqlState()).isEqualTo("54000");
      }
      // a startup packet with an absurd length
      try (Socket s = new Socket("127.0.0.1", port)) {
        s.setSoTimeout(5000);
        new DataOutputStream(s.getOutputStream()).writeInt(1_000_000_000);
        DataInputStream in = new DataInputStream(s.getInputStream());
        assertThat(in.read()).isEqualTo('E');
      }
      // a connection dropped in the middle of a message
      try (RawClient c = ready(port)) {
        c.out.write(new byte[] {'Q', 0, 0, 0, 100, 's'});
        c.out.flush();
      }
      good.query("select 3");
      assertThat(RawClient.types(good.readUntilReady())).isEqualTo("TDCZ");
    }
  }

  private static RawClient ready(int port) throws IOException {
    RawClient c = new RawClient(port);
    c.startup("root", "dev");
    c.readUntilReady();
    return c;
  }

  @Test
  void emptyQueryNoticeAndUnknownDatabase() throws IOException {
    int port = start(PgAuth.trust(), 1 << 20);
    try (RawClient c = ready(port)) {
      c.query("");
      assertThat(RawClient.types(c.readUntilReady())).isEqualTo("IZ");
      c.query("notice");
      List<RawClient.Reply> r = c.readUntilReady();
      assertThat(RawClient.types(r)).isEqualTo("NCZ");
      assertThat(r.get(0).text()).contains("hello from the server");
    }
    try (RawClient c = new RawClient(port)) {
      c.startup("root", "nosuchdb");
      assertThat(c.read().type()).isEqualTo('R');
      RawClient.Reply r;
      do {
        r = c.read();
      } while (r.type() != 'E');
      assertThat(r.sqlState()).isEqualTo("3D000");
    }
  }

  @Test
  void cancelRequestOnASecondConnectionCancelsTheRunningStatement() throws Exception {
    int port = start(PgAuth.trust(), 1 << 20);
    try (RawClient c = new RawClient(port)) {
      c.startup("root", "dev");
      List<RawClient.Reply> hello = c.readUntilReady();
      byte[] key = hello.get(hello.size() - 2).body();
      c.query("wait");
      try (Socket s = new Socket("127.0.0.1", port)) {
        DataOutputStream out = new DataOutputStream(s.getOutputStream());
        out.writeInt(16);
        out.writeInt(PgConnection.CANCEL_REQUEST);
        out.write(key);
        out.flush();
        assertThat(s.getInputStream().read()).isEqualTo(-1); // closed without a word
      }
      List<RawClient.Reply> r = c.readUntilReady();
      assertThat(r.get(0).sqlState()).isEqualTo("57014");
    }
  }

  @Test
  void pgjdbcAuthenticatesWithScramMd5AndCleartextAndWrongPasswordsGet28P01() throws Exception {
    for (PgAuth.Method m :
        List.of(PgAuth.Method.SCRAM_SHA_256, PgAuth.Method.MD5, PgAuth.Method.CLEARTEXT)) {
      int port = start(new PgAuth(m, Map.of("alice", "s3cret")), 1 << 20);
      try (Connection conn = connect(port, "alice", "s3cret");
          Statement st = conn.createStatement();
          ResultSet rs = st.executeQuery("select 42")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getLong(1)).as("%s", m).isEqualTo(42);
      }
      assertThatThrownBy(() -> connect(port, "alice", "wrong").close())
          .isInstanceOf(SQLException.class)
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("28P01"));
      assertThatThrownBy(() -> connect(port, "mallory", "s3cret").close())
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("28P01"))
          .hasMessageContaining("mallory");
      try (Connection conn = connect(port, "alice", "s3cret")) {
        assertThat(conn.isValid(2)).as("server still serves after failures").isTrue();
      }
      server.close();
    }
  }

  @Test
  void pgjdbcPreparedStatementSwitchesToBinaryResultsAndParameters() throws Exception {
    int port = start(PgAuth.trust(), 1 << 20);
    try (Connection conn = connect(port, "root", null);
        PreparedStatement ps = conn.prepareStatement("echo ?")) {
      for (int i = 0; i < 8; i++) {
        ps.setLong(1, 1_000_000_000_000L + i);
        try (ResultSet rs = ps.executeQuery()) {
          assertThat(rs.next()).isTrue();
          assertThat(rs.getLong(1)).isEqualTo(1_000_000_000_000L + i);
        }
      }
      ps.setBigDecimal(1, new java.math.BigDecimal("-12.3400"));
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        assertThat(rs.getBigDecimal(1)).isEqualByComparingTo("-12.34");
      }
    }
    try (Connection conn = connect(port, "root", null);
        Statement st = conn.createStatement()) {
      st.setFetchSize(3);
      conn.setAutoCommit(false);
      try (ResultSet rs = st.executeQuery("rows 10")) {
        int n = 0;
        while (rs.next()) {
          assertThat(rs.getInt(1)).isEqualTo(n++);
        }
        assertThat(n).isEqualTo(10);
      }
    }
  }

  static Connection connect(int port, String user, String password) throws SQLException {
    Properties p = new Properties();
    p.setProperty("user", user);
    if (password != null) {
      p.setProperty("password", password);
    }
    return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + port + "/dev", p);
  }
}
