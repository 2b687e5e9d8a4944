/**
 * The PostgreSQL wire protocol (v3), hand-written: framing ({@link PgReader}, {@link PgWriter}),
 * startup and authentication ({@link PgAuth}, {@link Scram}), the simple and extended query
 * protocol ({@link PgConnection}), type codecs ({@link PgType}, {@link PgCodec}) and errors with
 * SQLSTATEs ({@link PgException}).
 *
 * <p>The protocol knows nothing about SQL: each connection talks to a {@link PgSession} that
 * parses, describes and executes statements. {@link PgServer} accepts sockets and runs one thread
 * per connection.
 */
package dev.tideway.frontend.pgwire;
