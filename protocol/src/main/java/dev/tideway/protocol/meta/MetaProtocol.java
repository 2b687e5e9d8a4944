package dev.tideway.protocol.meta;

import dev.tideway.barrier.progress.JobProgress;
import dev.tideway.common.serde.TidewayMessage;
import java.util.List;
import org.apache.pekko.actor.typed.ActorRef;

/**
 * What a frontend in another process asks the meta leader's endpoint ({@code /system/meta-endpoint}
 * on the leader's Pekko address), and the one answer shape. Their Kryo ids are the protocol
 * registrar's ({@code dev.tideway.protocol.ProtocolKryoRegistrar}).
 */
public final class MetaProtocol {
  private MetaProtocol() {}

  /** The endpoint's actor name under {@code /system}. */
  public static final String ENDPOINT = "meta-endpoint";

  /** A request; answered once on {@code replyTo}. */
  public sealed interface Request extends TidewayMessage {
    long requestId();

    ActorRef<Answer> replyTo();
  }

  /** Apply a DDL command at the leader. */
  public record Submit(long requestId, DdlCommand command, ActorRef<Answer> replyTo)
      implements Request {}

  /** Answer when job {@code jobId} is created (or fails). */
  public record AwaitCreated(long requestId, int jobId, ActorRef<Answer> replyTo)
      implements Request {}

  /**
   * Change a creating job's backfill rate limit; answered once the barrier carrying it committed
   * (or the leader's recovery rebuilt the actors with it).
   */
  public record SetBackfillRateLimit(
      long requestId, int jobId, long rowsPerSecond, ActorRef<Answer> replyTo) implements Request {}

  /** Answer with the creating jobs' progress. */
  public record GetProgress(long requestId, ActorRef<Answer> replyTo) implements Request {}

  /**
   * The answer to any request.
   *
   * @param value a {@code Submit}'s result: the reserved first id, the created object or job id
   * @param rejectReason a rejected {@code Submit}'s {@code DdlReply.Rejected.Reason} name, else ""
   * @param error why the request failed ("" when it did not); {@code not-leader:} prefixed when
   *     this meta process does not lead
   * @param progress a {@code GetProgress}'s jobs
   */
  public record Answer(
      long requestId, int value, String rejectReason, String error, List<JobProgress> progress)
      implements TidewayMessage {
    public Answer {
      progress = List.copyOf(progress);
    }
  }

  public static final String NOT_LEADER = "not-leader: ";
}
