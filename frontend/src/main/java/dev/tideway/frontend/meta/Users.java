package dev.tideway.frontend.meta;

import dev.tideway.frontend.pgwire.PgException;
import dev.tideway.frontend.pgwire.SqlState;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The cluster's users ({@code CREATE USER}): each a name with properties ({@code password}: a
 * SCRAM-SHA-256 verifier, never the password; {@code superuser}; {@code login}). {@code root}, the
 * built-in superuser without a password, always exists and cannot be changed or dropped.
 * Implementations are thread-safe.
 */
public interface Users {
  String ROOT = "root";

  /** The user's properties; empty when there is no such user. */
  Optional<Map<String, String>> find(String name);

  /** Every user with its properties, by name ({@code root} included). */
  Map<String, Map<String, String>> all();

  void create(String name, Map<String, String> properties);

  /** Replaces the given properties; an empty value removes one ({@code PASSWORD NULL}). */
  void alter(String name, Map<String, String> properties);

  void drop(String name);

  /** Users kept in this process (tests, the in-memory cluster). */
  static Users inMemory() {
    Map<String, Map<String, String>> users = new ConcurrentHashMap<>();
    return new Users() {
      @Override
      public Optional<Map<String, String>> find(String name) {
        return name.equals(ROOT)
            ? Optional.of(Map.of("superuser", "true"))
            : Optional.ofNullable(users.get(name));
      }

      @Override
      public Map<String, Map<String, String>> all() {
        Map<String, Map<String, String>> out = new TreeMap<>(users);
        out.put(ROOT, Map.of("superuser", "true"));
        return out;
      }

      @Override
      public void create(String name, Map<String, String> properties) {
        if (name.equals(ROOT) || users.putIfAbsent(name, Map.copyOf(properties)) != null) {
          throw PgException.error(
              SqlState.DUPLICATE_OBJECT, "role \"" + name + "\" already exists");
        }
      }

      @Override
      public void alter(String name, Map<String, String> properties) {
        Map<String, String> old = users.get(name);
        if (old == null) {
          throw missing(name);
        }
        Map<String, String> next = new TreeMap<>(old);
        properties.forEach(
            (k, v) -> {
              if (v.isEmpty()) {
                next.remove(k);
              } else {
                next.put(k, v);
              }
            });
        users.put(name, Map.copyOf(next));
      }

      @Override
      public void drop(String name) {
        if (users.remove(name) == null) {
          throw missing(name);
        }
      }
    };
  }

  static PgException missing(String name) {
    return PgException.error(SqlState.UNDEFINED_OBJECT, "role \"" + name + "\" does not exist");
  }

  /** The names, for messages. */
  default List<String> names() {
    return List.copyOf(all().keySet());
  }
}
