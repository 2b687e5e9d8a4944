package dev.tideway.cli.local;

import dev.tideway.common.check.Checks;
import dev.tideway.common.time.Clock;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A cluster of separate processes on loopback, started from Tideway's own jar exactly as the
 * README's role commands start them: one ZooKeeper, two meta processes, two compute nodes and a
 * frontend, sharing one state store ({@code file://} or S3). Each process keeps its ports across
 * restarts (a compute node's Pekko address is part of the actor placement), logs to {@code
 * <dir>/<name>.log}, and can be killed ({@code kill -9}), paused ({@code SIGSTOP}/{@code SIGCONT})
 * and restarted. Its processes read a fault-control file ({@link #faultFile()}), through which a
 * fail point (the object store failing writes) is switched on and off from outside.
 *
 * <p>It supervises its processes as Kubernetes would: one that exits with the "downed" status (the
 * cluster removed its member: it was quarantined after a pause, say) is started again after a
 * second ({@link #supervisorRestarts()}); one killed from outside stays down until its driver
 * starts it.
 *
 * <p>Used by {@code tideway chaos} and {@code tideway bench ingest}, and by the tests that need a
 * real multi-process cluster. One driver thread; the supervisor shares the process table with it
 * under this object's lock.
 */
public final class LocalCluster implements AutoCloseable {
  /** The roles' process names. */
  public static final String ZOOKEEPER = "zookeeper";

  public static final String FRONTEND = "frontend";

  public static final List<String> METAS = List.of("meta-1", "meta-2");
  public static final List<String> COMPUTES = List.of("compute-1", "compute-2");

  /** How a cluster is laid out. */
  public record Options(
      Path dir,
      Path jar,
      String heap,
      long barrierIntervalMs,
      int zkSessionTimeoutMs,
      boolean c1Only,
      int computeParallelism,
      Map<String, String> env,
      String store) {
    public Options {
      Checks.checkArgument(Files.isRegularFile(jar), "no Tideway jar at %s", jar);
      env = Map.copyOf(env);
    }

    /** Defaults for a cluster under {@code dir} from {@code jar}. */
    public static Options of(Path dir, Path jar) {
      return new Options(dir, jar, "384m", 250, 5_000, true, 1, Map.of(), null);
    }

    public Options withHeap(String h) {
      return new Options(
          dir,
          jar,
          h,
          barrierIntervalMs,
          zkSessionTimeoutMs,
          c1Only,
          computeParallelism,
          env,
          store);
    }

    /** C2 as well as C1 (benchmarks; tests start faster with C1 alone). */
    public Options withFullJit() {
      return new Options(
          dir,
          jar,
          heap,
          barrierIntervalMs,
          zkSessionTimeoutMs,
          false,
          computeParallelism,
          env,
          store);
    }

    public Options withParallelism(int p) {
      return new Options(
          dir, jar, heap, barrierIntervalMs, zkSessionTimeoutMs, c1Only, p, env, store);
    }

    public Options withBarrierInterval(long ms, int sessionTimeoutMs) {
      return new Options(
          dir, jar, heap, ms, sessionTimeoutMs, c1Only, computeParallelism, env, store);
    }

    /** Environment variables every process gets (configuration twins: TIDEWAY_...). */
    public Options withEnv(Map<String, String> vars) {
      return new Options(
          dir,
          jar,
          heap,
          barrierIntervalMs,
          zkSessionTimeoutMs,
          c1Only,
          computeParallelism,
          vars,
          store);
    }

    /**
     * The state store every process opens ({@code s3://BUCKET/PREFIX} with its settings in {@link
     * #withEnv}); by default a {@code file://} directory under {@link #dir}.
     */
    public Options withStore(String url) {
      return new Options(
          dir,
          jar,
          heap,
          barrierIntervalMs,
          zkSessionTimeoutMs,
          c1Only,
          computeParallelism,
          env,
          url);
    }
  }

  private final Options options;
  private final Clock clock;
  private final Map<String, List<String>> commands = new LinkedHashMap<>();
  private final Map<String, Process> running = new LinkedHashMap<>();

  /** The status a role process exits with when the cluster removed its member. */
  public static final int DOWNED_STATUS = 3;

  private final java.util.concurrent.ScheduledExecutorService supervisor =
      dev.tideway.common.exec.Threads.scheduler("local-cluster-supervisor");
  private final java.util.concurrent.atomic.AtomicInteger supervisorRestarts =
      new java.util.concurrent.atomic.AtomicInteger();
  private volatile boolean closing;
  private final HttpClient http = HttpClient.newHttpClient();
  private final int zkPort;
  private final int pgPort;
  private final int[] metaHttp = new int[2];
  private final int[] computeHttp = new int[2];

  private LocalCluster(Options options, Clock clock) throws IOException {
    this.options = options;
    this.clock = clock;
    Files.createDirectories(options.dir().resolve("store"));
    this.zkPort = freePort();
    this.pgPort = freePort();
    String zk = "127.0.0.1:" + zkPort;
    String store =
        options.store() != null
            ? options.store()
            : options.dir().resolve("store").toUri().toString();
    commands.put(
        ZOOKEEPER,
        List.of(
            "zookeeper",
            "--port",
            "" + zkPort,
            "--data-dir",
            options.dir().resolve("zk").toString()));
    for (int i = 0; i < 2; i++) {
      metaHttp[i] = freePort();
      commands.put(
          METAS.get(i),
          List.of(
              "meta",
              "--zookeeper",
              zk,
              "--store",
              store,
              "--participant-id",
              "m" + (i + 1),
              "--port",
              "" + freePort(),
              "--http-port",
              "" + metaHttp[i],
              "--barrier-interval-ms",
              "" + options.barrierIntervalMs(),
              "--zk-session-timeout-ms",
              "" + options.zkSessionTimeoutMs()));
    }
    for (int i = 0; i < 2; i++) {
      computeHttp[i] = freePort();
      commands.put(
          COMPUTES.get(i),
          List.of(
              "compute",
              "--zookeeper",
              zk,
              "--store",
              store,
              "--node-id",
              "" + (i + 1),
              "--parallelism",
              "" + options.computeParallelism(),
              "--port",
              "" + freePort(),
              "--http-port",
              "" + computeHttp[i]));
    }
    commands.put(
        FRONTEND,
        List.of(
            "frontend",
            "--zookeeper",
            zk,
            "--store",
            store,
            "--port",
            "" + freePort(),
            "--pg-port",
            "" + pgPort));
  }

  /**
   * Starts every process and waits until the frontend answers SQL on a cluster with both compute
   * nodes.
   */
  public static LocalCluster start(Options options, Clock clock, Duration within) throws Exception {
    LocalCluster c = new LocalCluster(options, clock);
    try {
      c.start(ZOOKEEPER);
      for (String name : c.commands.keySet()) {
        if (!name.equals(ZOOKEEPER)) {
          c.start(name);
        }
      }
      c.awaitReady(within);
      return c;
    } catch (Exception | Error e) {
      c.close();
      throw e;
    }
  }

  /** Starts {@code name} when it is not running (exited, or killed); whether it did. */
  public synchronized boolean ensureRunning(String name) throws IOException {
    if (isAlive(name)) {
      return false;
    }
    start(name);
    return true;
  }

  /** Processes the supervisor started again after they exited as downed. */
  public int supervisorRestarts() {
    return supervisorRestarts.get();
  }

  /** Starts (or restarts) process {@code name}. */
  public synchronized void start(String name) throws IOException {
    Checks.checkArgument(commands.containsKey(name), "no process %s", name);
    Process old = running.get(name);
    Checks.checkState(old == null || !old.isAlive(), "%s is running", name);
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx" + options.heap());
    if (options.c1Only()) {
      cmd.add("-XX:TieredStopAtLevel=1");
    }
    cmd.add("-jar");
    cmd.add(options.jar().toString());
    cmd.addAll(commands.get(name));
    ProcessBuilder b = new ProcessBuilder(cmd).redirectErrorStream(true);
    b.redirectOutput(ProcessBuilder.Redirect.appendTo(log(name).toFile()));
    b.environment().put("TIDEWAY_COMMON_FAULTS_CONTROL_FILE", faultFile().toString());
    b.environment().putAll(options.env());
    Process p = b.start();
    running.put(name, p);
    p.onExit().thenAccept(gone -> supervise(name, gone));
  }

  /** Starts {@code name} again a second after it exited as downed, unless it was replaced. */
  private void supervise(String name, Process gone) {
    if (closing || gone.exitValue() != DOWNED_STATUS) {
      return;
    }
    supervisor.schedule(
        () -> {
          synchronized (this) {
            if (closing || running.get(name) != gone) {
              return;
            }
            try {
              start(name);
              supervisorRestarts.incrementAndGet();
            } catch (IOException e) {
              System.err.println("local cluster: cannot start " + name + " again: " + e);
            }
          }
        },
        1,
        TimeUnit.SECONDS);
  }

  /** Kills process {@code name} at once ({@code kill -9}) and waits until it is gone. */
  public synchronized void kill(String name) throws InterruptedException {
    Process p = running.get(name);
    if (p != null && p.isAlive()) {
      p.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    }
  }

  /** Pauses process {@code name} ({@code SIGSTOP}): alive, holding its sockets, doing nothing. */
  public void pause(String name) throws IOException, InterruptedException {
    signal(name, "STOP");
  }

  /** Resumes a paused process ({@code SIGCONT}). */
  public void resume(String name) throws IOException, InterruptedException {
    signal(name, "CONT");
  }

  private synchronized void signal(String name, String sig)
      throws IOException, InterruptedException {
    Process p = running.get(name);
    Checks.checkState(p != null && p.isAlive(), "%s is not running", name);
    Process kill = new ProcessBuilder("kill", "-" + sig, "" + p.pid()).inheritIO().start();
    Checks.checkState(kill.waitFor() == 0, "kill -%s %s failed", sig, p.pid());
  }

  public synchronized boolean isAlive(String name) {
    Process p = running.get(name);
    return p != null && p.isAlive();
  }

  /** The process names, in start order. */
  public List<String> names() {
    return List.copyOf(commands.keySet());
  }

  public Path log(String name) {
    return options.dir().resolve(name + ".log");
  }

  /** The file every process watches for fail points to switch on (see {@code FaultControl}). */
  public Path faultFile() {
    return options.dir().resolve("faults");
  }

  /** Switches fail point {@code name} on in every process (off with {@link #clearFaults}). */
  public void injectFault(String failPoint) throws IOException {
    Files.writeString(faultFile(), failPoint + "\n");
  }

  public void clearFaults() throws IOException {
    Files.deleteIfExists(faultFile());
  }

  public int pgPort() {
    return pgPort;
  }

  public String jdbcUrl() {
    return "jdbc:postgresql://127.0.0.1:" + pgPort + "/dev?user=root";
  }

  /** A new connection to the frontend, retried until {@code within} is over. */
  public Connection connect(Duration within) throws Exception {
    long deadline = clock.nanoTime() + within.toNanos();
    while (true) {
      try {
        return DriverManager.getConnection(jdbcUrl());
      } catch (SQLException e) {
        if (clock.nanoTime() > deadline) {
          throw e;
        }
        clock.sleepMillis(300);
      }
    }
  }

  /** The name of the meta process that leads now, or null. */
  public String leader() {
    for (int i = 0; i < 2; i++) {
      if (isAlive(METAS.get(i)) && get(metaHttp[i], "/health/ready").contains("leader")) {
        return METAS.get(i);
      }
    }
    return null;
  }

  /** The leader's HTTP port, or -1. */
  public int leaderHttpPort() {
    String l = leader();
    return l == null ? -1 : metaHttp[METAS.indexOf(l)];
  }

  public int metaHttpPort(String meta) {
    return metaHttp[METAS.indexOf(meta)];
  }

  public int computeHttpPort(String compute) {
    return computeHttp[COMPUTES.indexOf(compute)];
  }

  /** {@code GET http://127.0.0.1:port/path}: "status body", or "down". */
  public String get(int port, String path) {
    try {
      HttpResponse<String> r =
          http.send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                  .timeout(Duration.ofSeconds(2))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      return r.statusCode() + " " + r.body();
    } catch (IOException e) {
      return "down";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "down";
    }
  }

  /** Compute nodes registered, as the leader's {@code /api/cluster} lists them. */
  public int computeNodesRegistered() {
    int port = leaderHttpPort();
    return port < 0 ? 0 : get(port, "/api/cluster").split("\"compute\"", -1).length - 1;
  }

  /**
   * Waits until a meta process leads, both compute nodes are registered and the frontend answers
   * SQL.
   */
  public void awaitReady(Duration within) throws Exception {
    long deadline = clock.nanoTime() + within.toNanos();
    while (leader() == null || computeNodesRegistered() < 2) {
      for (String n : names()) {
        Checks.checkState(isAlive(n), "%s exited while the cluster started; see %s", n, log(n));
      }
      Checks.checkState(
          clock.nanoTime() < deadline,
          "the cluster was not ready within %s (leader %s, compute nodes %s)",
          within,
          leader(),
          computeNodesRegistered());
      clock.sleepMillis(250);
    }
    try (Connection c = connect(Duration.ofNanos(Math.max(1, deadline - clock.nanoTime())))) {
      Checks.checkState(c.isValid(5), "the frontend does not answer");
    }
  }

  /** The last {@code n} lines of a process's log. */
  public List<String> tail(String name, int n) throws IOException {
    if (!Files.exists(log(name))) {
      return List.of();
    }
    List<String> lines = Files.readAllLines(log(name));
    return lines.subList(Math.max(0, lines.size() - n), lines.size());
  }

  @Override
  public void close() {
    closing = true;
    supervisor.shutdownNow();
    List<Process> all;
    synchronized (this) {
      all = new ArrayList<>(running.values());
    }
    for (Process p : all) {
      if (p.isAlive()) {
        p.destroyForcibly();
      }
    }
    for (Process p : all) {
      try {
        p.waitFor(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      s.setReuseAddress(true);
      return s.getLocalPort();
    }
  }
}
