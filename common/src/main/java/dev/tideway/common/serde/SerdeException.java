package dev.tideway.common.serde;

/**
 * A message could not be encoded or decoded. Never retryable: the same bytes fail the same way, so
 * the channel that carried them must fail (and recovery take over) rather than retry.
 */
public final class SerdeException extends RuntimeException {
  /** Why encoding or decoding failed. */
  public enum Reason {
    /** Encoding met a class with no Kryo registration. */
    UNREGISTERED_CLASS,
    /** Decoding met a class id no class is registered under (nothing was instantiated). */
    UNKNOWN_CLASS_ID,
    /** Decoding met a class written by name; only registered ids are accepted. */
    CLASS_NAME_ON_WIRE,
    /** The top-level class is registered but not the type the caller accepts. */
    UNEXPECTED_CLASS,
    /** The leading format-version byte is one this node does not read. */
    UNSUPPORTED_FORMAT_VERSION,
    /** Typed ActorRefs need a registry built with an actor system. */
    NO_ACTOR_SYSTEM,
    /** The bytes are malformed (truncated, trailing bytes, invalid values). */
    CORRUPT,
    /** A registered value could not be encoded (e.g. a serializer rejected it). */
    ENCODE_FAILED,
    /** The encoded message is larger than the buffer it must fit (a transport frame). */
    TOO_LARGE
  }

  private final Reason reason;

  public SerdeException(Reason reason, String message) {
    super(message);
    this.reason = reason;
  }

  public SerdeException(Reason reason, String message, Throwable cause) {
    super(message, cause);
    this.reason = reason;
  }

  public Reason reason() {
    return reason;
  }

  /** Always false: decoding is deterministic. */
  public boolean retryable() {
    return false;
  }
}
