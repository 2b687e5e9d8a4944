package dev.tideway.frontend.pgwire;

import static dev.tideway.frontend.pgwire.Messages.concat;
import static dev.tideway.frontend.pgwire.Messages.cstr;
import static dev.tideway.frontend.pgwire.Messages.message;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Extended-protocol mistakes a client can make: recoverable ones answer an ErrorResponse with the
 * PostgreSQL SQLSTATE, skip to Sync and keep the connection; protocol violations end only that
 * connection (FATAL 08P01), startup mistakes end it with the startup SQLSTATE; another client is
 * served throughout.
 */
class ProtocolErrorsTest {
  private PgServer server;
  private int port;
  private RawClient bystander;

  @BeforeEach
  void start() throws IOException {
    server = new PgServer(PgServerConfig.defaults(0), ScriptedSession.factory());
    port = server.start();
    bystander = ready();
  }

  @AfterEach
  void stop() throws IOException {
    assertThat(selectWorks(bystander, 11)).as("the other client is still served").isTrue();
    bystander.close();
    server.close();
  }

  private RawClient ready() throws IOException {
    RawClient c = new RawClient(port);
    c.startup("root", "dev");
    c.readUntilReady();
    return c;
  }

  private static boolean selectWorks(RawClient c, int n) throws IOException {
    c.query("select " + n);
    return RawClient.types(c.readUntilReady()).equals("TDCZ");
  }

  private static byte[] bind(String portal, String stmt, int params) {
    return message(
        'B', concat(cstr(portal), cstr(stmt), new byte[] {0, 0, 0, (byte) params, 0, 0}));
  }

  private static byte[] execute(String portal) {
    return message('E', concat(cstr(portal), new byte[] {0, 0, 0, 0}));
  }

  private static byte[] parse(String name, String sql) {
    return message('P', concat(cstr(name), cstr(sql), new byte[] {0, 0}));
  }

  @Test
  void recoverableErrorsSkipToSyncAndKeepTheConnection() throws IOException {
    try (RawClient c = ready()) {
      c.out.write(concat(bind("", "nosuch", 0), execute(""), Messages.sync()));
      List<RawClient.Reply> r = c.readUntilReady();
      assertThat(RawClient.types(r))
          .as("the Execute after the failed Bind is skipped")
          .isEqualTo("EZ");
      assertThat(r.get(0).sqlState()).isEqualTo("26000");
      assertThat(r.get(0).text()).contains("prepared statement \"nosuch\" does not exist");

      c.out.write(concat(execute("noportal"), Messages.sync()));
      r = c.readUntilReady();
      assertThat(r.get(0).sqlState()).isEqualTo("34000");

      c.out.write(concat(parse("s1", "select 1"), parse("s1", "select 2"), Messages.sync()));
      r = c.readUntilReady();
      assertThat(RawClient.types(r)).isEqualTo("1EZ");
      assertThat(r.get(1).sqlState()).isEqualTo("42P05");

      c.out.write(concat(parse("", "select 1; select 2"), Messages.sync()));
      r = c.readUntilReady();
      assertThat(r.get(0).sqlState()).isEqualTo("42601");
      assertThat(r.get(0).text()).contains("cannot insert multiple commands");

      c.out.write(concat(bind("", "s1", 0), execute(""), Messages.sync()));
      assertThat(RawClient.types(c.readUntilReady()))
          .as("the named statement parsed before the error still runs")
          .isEqualTo("2DCZ");
      assertThat(selectWorks(c, 5)).isTrue();
    }
  }

  @Test
  void bindWithTheWrongParameterCountIsAnErrorThatKeepsTheConnection() throws IOException {
    try (RawClient c = ready()) {
      c.out.write(concat(parse("", "echo ?"), bind("", "", 0), execute(""), Messages.sync()));
      List<RawClient.Reply> r = c.readUntilReady();
      assertThat(RawClient.types(r))
          .as("the Execute after the failed Bind is skipped")
          .isEqualTo("1EZ");
      assertThat(r.get(1).sqlState()).isEqualTo("08P01");
      assertThat(r.get(1).text())
          .doesNotContain("FATAL")
          .contains("bind message supplies 0 parameters, but prepared statement \"\" requires 1");
      assertThat(selectWorks(c, 7)).as("the connection still serves queries").isTrue();
    }
  }

  @Test
  void protocolViolationsEndOnlyThatConnection() throws IOException {
    try (RawClient c = ready()) {
      c.send('D', concat(new byte[] {'X'}, cstr("")));
      RawClient.Reply e = c.read();
      assertThat(e.sqlState()).isEqualTo("08P01");
      assertThat(e.text()).contains("invalid DESCRIBE message subtype");
    }
  }

  private static void startupPacket(RawClient c, int code, String... kv) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    DataOutputStream d = new DataOutputStream(b);
    d.writeInt(code);
    for (String s : kv) {
      d.write(cstr(s));
    }
    d.write(0);
    c.out.writeInt(b.size() + 4);
    c.out.write(b.toByteArray());
    c.out.flush();
  }

  @Test
  void startupMistakesGetTheirSqlState() throws IOException {
    try (RawClient c = new RawClient(port)) {
      startupPacket(c, 2 << 16, "user", "root");
      RawClient.Reply e = c.read();
      assertThat(e.sqlState()).isEqualTo("0A000");
      assertThat(e.text()).contains("unsupported frontend protocol 2.0");
    }
    try (RawClient c = new RawClient(port)) {
      startupPacket(c, 3 << 16, "database", "dev");
      RawClient.Reply e = c.read();
      assertThat(e.sqlState()).isEqualTo("28000");
      assertThat(e.text()).contains("no PostgreSQL user name specified");
    }
  }
}
