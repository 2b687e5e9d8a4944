package dev.tideway.meta.catalog;

import dev.tideway.protocol.catalog.CatalogChange;
import dev.tideway.protocol.meta.DdlReply;
import java.util.List;

/**
 * What {@link CatalogCore} decided for one command: the changes to persist in one fenced commit
 * (empty for a rejection) and the reply to send once they are persisted.
 */
public record DdlDecision(List<CatalogChange> changes, DdlReply reply) {
  public DdlDecision {
    changes = List.copyOf(changes);
  }

  static DdlDecision reject(DdlReply.Rejected.Reason reason, String fmt, Object... args) {
    return new DdlDecision(List.of(), new DdlReply.Rejected(reason, String.format(fmt, args)));
  }
}
