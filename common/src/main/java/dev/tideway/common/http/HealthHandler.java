package dev.tideway.common.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The probes a process answers on its HTTP port, as Kubernetes asks them: {@code /health/live} is
 * 200 while the process can still do its work (503 once its cluster member is gone: restart it),
 * {@code /health/ready} is 200 only when it can serve now and 503 with the reason otherwise (take
 * it out of the Service, do not restart it). Any other path is 404. Thread-safe.
 */
public final class HealthHandler implements HttpHandler {
  private final BooleanSupplier live;
  private final Supplier<Optional<String>> notReady;

  /**
   * @param live whether the process is alive
   * @param notReady why the process cannot serve now; empty when it can
   */
  public HealthHandler(BooleanSupplier live, Supplier<Optional<String>> notReady) {
    this.live = live;
    this.notReady = notReady;
  }

  @Override
  public void handle(HttpExchange ex) throws IOException {
    try (ex) {
      String path = ex.getRequestURI().getPath();
      if (!"GET".equals(ex.getRequestMethod()) && !"HEAD".equals(ex.getRequestMethod())) {
        reply(ex, 405, "GET only\n");
      } else if (path.equals("/health/live")) {
        reply(ex, live.getAsBoolean() ? 200 : 503, live.getAsBoolean() ? "ok\n" : "stopped\n");
      } else if (path.equals("/health/ready")) {
        Optional<String> why = live.getAsBoolean() ? notReady.get() : Optional.of("stopped");
        reply(ex, why.isEmpty() ? 200 : 503, why.map(w -> "not ready: " + w + "\n").orElse("ok\n"));
      } else {
        reply(ex, 404, "not found: " + path + "\n");
      }
    }
  }

  private static void reply(HttpExchange ex, int status, String body) throws IOException {
    byte[] b = body.getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
    boolean head = "HEAD".equals(ex.getRequestMethod());
    ex.sendResponseHeaders(status, head ? -1 : b.length);
    if (!head) {
      try (OutputStream out = ex.getResponseBody()) {
        out.write(b);
      }
    }
  }
}
