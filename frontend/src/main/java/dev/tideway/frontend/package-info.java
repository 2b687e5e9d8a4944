/**
 * The frontend: PostgreSQL wire protocol server, SQL parsing and planning (Apache Calcite) into
 * stream graphs, batch reads over committed snapshots and the system catalog.
 *
 * <p>Empty until the frontend issue lands; see this module's README for the planned layout.
 */
package dev.tideway.frontend;
