package dev.tideway.meta.catalog;

import dev.tideway.protocol.catalog.CatalogChange;
import dev.tideway.protocol.catalog.CatalogObject;
import dev.tideway.protocol.catalog.CatalogState;
import dev.tideway.protocol.catalog.NextId;
import dev.tideway.protocol.catalog.ObjectKind;
import dev.tideway.protocol.meta.DdlCommand;
import dev.tideway.protocol.meta.DdlReply;
import dev.tideway.protocol.meta.DdlReply.Rejected.Reason;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code CREATE USER} and {@code ALTER USER} decided purely: users are cluster-wide catalog objects
 * ({@link ObjectKind#USER}, parent 0) whose properties the frontend's authenticator reads. {@code
 * DROP USER} is a {@link DdlCommand.Drop} of kind USER (a catalog-only object).
 */
final class Users {
  /** The built-in superuser every cluster has; it cannot be created, altered away or dropped. */
  static final String ROOT = "root";

  private Users() {}

  static DdlDecision create(DdlCommand.CreateUser c, CatalogState state) {
    if (c.name().isBlank()) {
      return DdlDecision.reject(Reason.INVALID, "a user name must not be empty");
    }
    if (c.name().equals(ROOT) || state.find(0, c.name(), ObjectKind.USER).isPresent()) {
      return DdlDecision.reject(Reason.ALREADY_EXISTS, "user '%s' already exists", c.name());
    }
    int id = state.nextId().next();
    CatalogObject user = user(id, c.name(), c.properties());
    return new DdlDecision(
        List.of(new CatalogChange.PutObject(user), new CatalogChange.PutNextId(new NextId(id + 1))),
        new DdlReply.ObjectCreated(id));
  }

  static DdlDecision alter(DdlCommand.AlterUser a, CatalogState state) {
    Optional<CatalogObject> u = state.find(0, a.name(), ObjectKind.USER);
    if (u.isEmpty()) {
      return DdlDecision.reject(Reason.NOT_FOUND, "user '%s' does not exist", a.name());
    }
    Map<String, String> props = new HashMap<>(u.get().properties());
    a.properties()
        .forEach(
            (k, v) -> {
              if (v.isEmpty()) {
                props.remove(k); // PASSWORD NULL
              } else {
                props.put(k, v);
              }
            });
    CatalogObject next = user(u.get().id(), a.name(), props);
    return new DdlDecision(
        List.of(new CatalogChange.PutObject(next)), new DdlReply.ObjectCreated(next.id()));
  }

  private static CatalogObject user(int id, String name, Map<String, String> props) {
    return new CatalogObject(
        id, ObjectKind.USER, name, 0, 0, "", List.of(), List.of(), props, List.of(), List.of());
  }
}
