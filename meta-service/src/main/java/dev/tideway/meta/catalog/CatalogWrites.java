package dev.tideway.meta.catalog;

import dev.tideway.meta.cluster.MetaWrite;
import dev.tideway.protocol.catalog.CatalogChange;
import dev.tideway.protocol.store.MetaPaths;

/** The one znode write that persists each {@link CatalogChange}. */
public final class CatalogWrites {
  private CatalogWrites() {}

  public static MetaWrite toWrite(CatalogChange change, MetaPaths paths) {
    if (change instanceof CatalogChange.PutObject c) {
      return new MetaWrite.Put(paths.catalogObject(c.object().id()), c.object().encode());
    } else if (change instanceof CatalogChange.DeleteObject c) {
      return new MetaWrite.Delete(paths.catalogObject(c.id()));
    } else if (change instanceof CatalogChange.PutJob c) {
      return new MetaWrite.Put(paths.job(c.job().jobId()), c.job().encode());
    } else if (change instanceof CatalogChange.DeleteJob c) {
      return new MetaWrite.Delete(paths.job(c.jobId()));
    } else if (change instanceof CatalogChange.PutFragments c) {
      return new MetaWrite.Put(paths.fragmentGraph(c.graph().jobId()), c.graph().encode());
    } else if (change instanceof CatalogChange.DeleteFragments c) {
      return new MetaWrite.Delete(paths.fragmentGraph(c.jobId()));
    } else if (change instanceof CatalogChange.PutNextId c) {
      return new MetaWrite.Put(paths.nextId(), c.nextId().encode());
    } else if (change instanceof CatalogChange.PutParams c) {
      return new MetaWrite.Put(paths.params(), c.params().encode());
    } else if (change instanceof CatalogChange.PutRecoveryLog c) {
      return new MetaWrite.Put(paths.recoveryLog(), c.log().encode());
    } else if (change instanceof CatalogChange.PutBackfillHistory c) {
      return new MetaWrite.Put(paths.backfillHistory(), c.history().encode());
    } else if (change instanceof CatalogChange.PutVersionPointer c) {
      return new MetaWrite.Put(paths.versionPointer(), c.pointer().encode());
    }
    throw new IllegalStateException("unknown catalog change " + change);
  }
}
