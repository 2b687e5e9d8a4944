/**
 * One connection's SQL session: {@link Session} implements the protocol's {@link
 * dev.tideway.frontend.pgwire.PgSession} by parsing ({@link dev.tideway.frontend.sql}), then
 * running queries on its batch engine, DML through the {@link dev.tideway.frontend.meta.DmlWriter},
 * and DDL through the {@link dev.tideway.frontend.meta.MetaClient} after planning materialized
 * views ({@link dev.tideway.frontend.plan}).
 */
package dev.tideway.frontend.session;
