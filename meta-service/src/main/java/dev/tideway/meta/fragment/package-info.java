/**
 * Stream plan → fragments. {@link dev.tideway.meta.fragment.Fragmenter#fragment} cuts a job's
 * {@code StreamPlanNode} tree at every {@code Exchange}: the exchange's input subtree becomes an
 * upstream fragment, and in the downstream fragment the exchange is replaced by a {@code Merge}
 * leaf naming it. Pure functions; no I/O.
 *
 * <p>Invariants: fragments are listed upstream before downstream; each fragment's tree contains no
 * {@code Exchange}; every edge's upstream is a fragment of the result.
 */
package dev.tideway.meta.fragment;
