package dev.tideway.common.bench;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;

/** The registry of benchmarks found on the class path through {@link ServiceLoader}. */
public final class Benchmarks {
  private Benchmarks() {}

  /** Every registered benchmark, sorted by name. */
  public static List<Benchmark> all() {
    List<Benchmark> list = new ArrayList<>();
    ServiceLoader.load(Benchmark.class).forEach(list::add);
    list.sort(Comparator.comparing(Benchmark::name));
    return list;
  }

  public static List<String> names() {
    return all().stream().map(Benchmark::name).toList();
  }

  public static Optional<Benchmark> find(String name) {
    return all().stream().filter(b -> b.name().equals(name)).findFirst();
  }
}
