package dev.tideway.frontend.pgwire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.common.random.RandomSource;
import dev.tideway.common.time.Clock;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Bad input never harms other sessions: thousands of malformed, truncated and oversized messages,
 * hundreds of idle connections, and a client that stops reading in the middle of a large result.
 * Each hostile connection gets an error or is closed, the server allocates nothing for a length it
 * refuses, and a bystander session's query keeps answering within a second throughout.
 */
class HostileClientsTest {
  private static final long ANSWER_MS = 1_000;

  private final Clock clock = Clock.system();
  private PgServer server;
  private int port;
  private RawClient bystander;

  @BeforeEach
  void start() throws IOException {
    server = new PgServer(PgServerConfig.defaults(0), ScriptedSession.factory());
    port = server.start();
    bystander = new RawClient(port);
    bystander.startup("root", "dev");
    bystander.readUntilReady();
  }

  @AfterEach
  void stop() throws IOException {
    bystander.close();
    server.close();
  }

  /** The bystander's {@code select n}, in milliseconds; fails the test when it does not answer. */
  private long bystanderMillis(int n) throws IOException {
    long t0 = clock.nanoTime();
    bystander.query("select " + n);
    assertThat(RawClient.types(bystander.readUntilReady())).isEqualTo("TDCZ");
    return (clock.nanoTime() - t0) / 1_000_000;
  }

  @Test
  void tenThousandMalformedMessagesEachEndOnlyTheirOwnConnection() throws Exception {
    RandomSource r = RandomSource.fromPropertyOr(42);
    int errors = 0;
    int closed = 0;
    long slowest = 0;
    for (int i = 0; i < 10_000; i++) {
      try (Socket s = new Socket("127.0.0.1", port)) {
        s.setSoTimeout(5_000);
        DataOutputStream out = new DataOutputStream(s.getOutputStream());
        boolean afterStartup = r.nextBoolean();
        if (afterStartup) {
          writeStartup(out);
        }
        garbage(out, r, afterStartup);
        out.flush();
        s.shutdownOutput(); // a truncated message ends here
        switch (outcome(new DataInputStream(s.getInputStream()), afterStartup)) {
          case 'E' -> errors++;
          default -> closed++;
        }
      }
      if (i % 500 == 0) {
        slowest = Math.max(slowest, bystanderMillis(i));
      }
    }
    assertThat(errors + closed).isEqualTo(10_000);
    assertThat(errors).as("most get an ErrorResponse saying why").isGreaterThan(5_000);
    assertThat(slowest)
        .as("the bystander's slowest answer, ms (seed %s)", r.seed())
        .isLessThan(ANSWER_MS);
    assertThat(server.liveConnections()).as("only the bystander is left").isEqualTo(1);
  }

  @Test
  void fiveHundredIdleConnectionsAreAnsweredOrRefusedAndTheBystanderIsServed() throws Exception {
    List<Socket> idle = new ArrayList<>();
    int refused = 0;
    try {
      for (int i = 0; i < 500; i++) {
        Socket s = new Socket("127.0.0.1", port);
        s.setSoTimeout(5_000);
        DataOutputStream out = new DataOutputStream(s.getOutputStream());
        writeStartup(out);
        out.flush();
        DataInputStream in = new DataInputStream(s.getInputStream());
        char first = (char) in.read();
        if (first == 'E') {
          refused++; // FATAL 53300: too many connections
          s.close();
        } else {
          idle.add(s); // authenticated, now idle
        }
      }
      assertThat(idle.size() + refused).isEqualTo(500);
      assertThat(refused).as("over the connection limit: refused with an error").isPositive();
      assertThat(bystanderMillis(7)).isLessThan(ANSWER_MS);
    } finally {
      for (Socket s : idle) {
        s.close();
      }
    }
  }

  @Test
  void aClientThatStopsReadingMidResultHarmsNoOne() throws Exception {
    try (RawClient stalled = new RawClient(port)) {
      stalled.startup("root", "dev");
      stalled.readUntilReady();
      stalled.query("rows 2000000"); // megabytes of DataRows it never reads
      clock.sleepMillis(500);
      for (int i = 0; i < 5; i++) {
        assertThat(bystanderMillis(i)).isLessThan(ANSWER_MS);
      }
    }
    // once it is gone its connection ends, and the server keeps serving
    assertThat(bystanderMillis(9)).isLessThan(ANSWER_MS);
  }

  private static void writeStartup(DataOutputStream out) throws IOException {
    byte[] body = "user\0root\0database\0dev\0\0".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    out.writeInt(body.length + 8);
    out.writeInt(196608);
    out.write(body);
  }

  /** A malformed, truncated or oversized message (after a startup, or in place of one). */
  private static void garbage(DataOutputStream out, RandomSource r, boolean afterStartup)
      throws IOException {
    int kind = r.nextInt(6);
    if (!afterStartup) {
      switch (kind) {
        case 0 -> out.writeInt(-5); // negative length
        case 1 -> out.writeInt(Integer.MAX_VALUE); // 2 GiB startup packet
        case 2 -> {
          out.writeInt(12);
          out.writeInt(r.nextInt()); // an unknown protocol
          out.writeInt(0);
        }
        case 3 -> out.writeInt(50); // truncated: 50 promised, nothing sent
        case 4 -> {
          out.writeInt(20);
          out.writeInt(196608);
          byte[] b = new byte[12];
          r.nextBytes(b); // not NUL-terminated pairs
          out.write(b);
        }
        default -> {
          byte[] b = new byte[1 + r.nextInt(64)];
          r.nextBytes(b);
          out.write(b);
        }
      }
      return;
    }
    byte type = (byte) "QPBEDSCXHdcf!~\0".charAt(r.nextInt(15));
    out.write(type);
    switch (kind) {
      case 0 -> out.writeInt(-1 - r.nextInt(1000)); // negative length
      case 1 -> out.writeInt(Integer.MAX_VALUE - r.nextInt(1000)); // about 2 GiB
      case 2 -> out.writeInt(3); // shorter than the length itself
      case 3 -> {
        out.writeInt(1000); // truncated body
        out.write(new byte[r.nextInt(100)]);
      }
      default -> {
        byte[] b = new byte[r.nextInt(200)];
        r.nextBytes(b);
        out.writeInt(b.length + 4);
        out.write(b);
      }
    }
  }

  /** 'E' when the server answered with an ErrorResponse before closing, else 'X' (closed). */
  private static char outcome(DataInputStream in, boolean afterStartup) throws IOException {
    try {
      while (true) {
        int type = in.read();
        if (type < 0) {
          return 'X';
        }
        int len = in.readInt();
        if (len < 4 || len > 1 << 20) {
          throw new AssertionError("the server sent a message of length " + len);
        }
        in.readFully(new byte[len - 4]);
        if (type == 'E') {
          return 'E';
        }
      }
    } catch (EOFException e) {
      return 'X';
    } catch (SocketTimeoutException e) {
      throw new AssertionError(
          "the server neither answered nor closed a malformed connection"
              + (afterStartup ? " (after startup)" : ""),
          e);
    } catch (java.net.SocketException e) {
      return 'X'; // reset
    }
  }
}
