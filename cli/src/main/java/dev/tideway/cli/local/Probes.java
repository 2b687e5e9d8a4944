package dev.tideway.cli.local;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * What the fault and fuzz drivers (and the cluster tests) read from a running cluster: a query's
 * rows as sorted text, and the meta service's count of recoveries.
 */
public final class Probes {
  private Probes() {}

  /** The rows of {@code sql} as sorted {@code a|b} lines, each cell through {@code cell}. */
  public static List<String> sortedRows(Statement st, String sql, UnaryOperator<String> cell)
      throws SQLException {
    List<String> out = new ArrayList<>();
    try (ResultSet rs = st.executeQuery(sql)) {
      int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        StringBuilder b = new StringBuilder();
        for (int i = 1; i <= n; i++) {
          b.append(i > 1 ? "|" : "").append(cell.apply(rs.getString(i)));
        }
        out.add(b.toString());
      }
    }
    out.sort(null);
    return out;
  }

  /**
   * The meta service's recoveries of every cause but a leader's election, from its {@code /metrics}
   * on {@code httpPort} (loopback).
   */
  public static double recoveries(int httpPort) {
    try {
      String body =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + "/metrics"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString())
              .body();
      double n = 0;
      for (String line : body.split("\n")) {
        if (line.startsWith("tideway_recovery_total{") && !line.contains("leader_elected")) {
          n += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
        }
      }
      return n;
    } catch (java.io.IOException e) {
      throw new IllegalStateException("cannot read the meta service's /metrics", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted reading the meta service's /metrics", e);
    }
  }
}
