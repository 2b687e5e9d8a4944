package dev.tideway.frontend.cluster;

import dev.tideway.frontend.meta.Users;
import dev.tideway.protocol.catalog.CatalogObject;
import dev.tideway.protocol.catalog.CatalogState;
import dev.tideway.protocol.catalog.ObjectKind;
import dev.tideway.protocol.meta.DdlCommand;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Users kept in the meta service's catalog ({@link ObjectKind#USER} objects): reads come from the
 * frontend's catalog snapshot, changes go through the leader as DDL, so every frontend of the
 * cluster authenticates against the same users.
 */
final class CatalogUsers implements Users {
  private final Supplier<CatalogState> state;
  private final Consumer<DdlCommand> call;

  CatalogUsers(Supplier<CatalogState> state, Consumer<DdlCommand> call) {
    this.state = state;
    this.call = call;
  }

  @Override
  public Optional<Map<String, String>> find(String name) {
    if (name.equals(ROOT)) {
      return Optional.of(Map.of("superuser", "true"));
    }
    return state.get().find(0, name, ObjectKind.USER).map(CatalogObject::properties);
  }

  @Override
  public Map<String, Map<String, String>> all() {
    Map<String, Map<String, String>> out = new TreeMap<>();
    out.put(ROOT, Map.of("superuser", "true"));
    for (CatalogObject o : state.get().objects().values()) {
      if (o.kind() == ObjectKind.USER) {
        out.put(o.name(), o.properties());
      }
    }
    return out;
  }

  @Override
  public void create(String name, Map<String, String> properties) {
    call.accept(new DdlCommand.CreateUser(name, properties));
  }

  @Override
  public void alter(String name, Map<String, String> properties) {
    if (name.equals(ROOT)) {
      throw dev.tideway.frontend.pgwire.PgException.unsupported("altering the built-in user root");
    }
    call.accept(new DdlCommand.AlterUser(name, properties));
  }

  @Override
  public void drop(String name) {
    if (name.equals(ROOT)) {
      throw dev.tideway.frontend.pgwire.PgException.error(
          "55006", "the built-in user root cannot be dropped");
    }
    call.accept(new DdlCommand.Drop(ObjectKind.USER, 0, name));
  }
}
