package dev.tideway.storage.api;

/** A state store with its version service, as one process holds them (playground, tests). */
public interface Storage extends StateStore, VersionService, AutoCloseable {
  @Override
  void close();
}
