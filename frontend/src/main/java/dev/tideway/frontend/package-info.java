/**
 * The frontend: PostgreSQL wire protocol server, SQL parsing and planning (Apache Calcite) into
 * stream plans, batch reads over committed snapshots and the system catalog. {@link
 * dev.tideway.frontend.Frontend} opens one session per connection; the module README maps the query
 * flow package by package.
 */
package dev.tideway.frontend;
