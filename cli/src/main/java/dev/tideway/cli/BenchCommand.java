package dev.tideway.cli;

import dev.tideway.common.bench.Benchmark;
import dev.tideway.common.bench.Benchmarks;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code tideway bench NAME [options]}: runs one registered benchmark. Modules add benchmarks by
 * implementing {@link Benchmark} and listing the class in {@code
 * META-INF/services/dev.tideway.common.bench.Benchmark}.
 */
@Command(
    name = "bench",
    description = "Run a benchmark; prints key=value lines, the last one a summary.",
    footer = {
      "Options after NAME go to the benchmark, e.g. --rows 1000000.",
      "Run 'tideway bench' with no name to list the benchmarks."
    })
final class BenchCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Parameters(index = "0", arity = "0..1", paramLabel = "NAME", description = "benchmark name")
  String name;

  /** Everything after NAME, passed to the benchmark (picocli would reject the --options). */
  @CommandLine.Unmatched List<String> options = new java.util.ArrayList<>();

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (name == null) {
      out.println("benchmarks:");
      for (Benchmark b : Benchmarks.all()) {
        out.printf("  %-12s %s%n", b.name(), b.description());
      }
      return 0;
    }
    Benchmark bench = Benchmarks.find(name).orElse(null);
    if (bench == null) {
      err.println(
          "tideway bench: no benchmark named '"
              + name
              + "'; known: "
              + String.join(", ", Benchmarks.names()));
      return 2;
    }
    try {
      bench.run(Benchmark.Options.parse(options), out);
      out.flush();
      return 0;
    } catch (IllegalArgumentException e) {
      err.println("tideway bench " + name + ": " + e.getMessage());
      return 2;
    }
  }
}
