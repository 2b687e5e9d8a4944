package dev.tideway.meta.endpoint;

import dev.tideway.meta.MetaServer;
import dev.tideway.protocol.meta.DdlRejectedException;
import dev.tideway.protocol.meta.DdlReply;
import dev.tideway.protocol.meta.MetaProtocol;
import dev.tideway.protocol.meta.MetaProtocol.Answer;
import dev.tideway.protocol.meta.NotLeaderException;
import java.util.List;
import java.util.concurrent.CompletionException;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * The meta process's endpoint for frontends in other processes: forwards requests to the local
 * {@link MetaServer} and answers when its futures complete (never blocking the actor).
 */
public final class MetaEndpoint {
  private MetaEndpoint() {}

  public static Behavior<MetaProtocol.Request> create(MetaServer meta) {
    return Behaviors.receiveMessage(
        r -> {
          handle(meta, r);
          return Behaviors.same();
        });
  }

  private static void handle(MetaServer meta, MetaProtocol.Request r) {
    if (r instanceof MetaProtocol.Submit s) {
      meta.ddl()
          .submit(s.command())
          .whenComplete(
              (reply, e) -> r.replyTo().tell(e != null ? failed(r, e) : answer(r, reply)));
    } else if (r instanceof MetaProtocol.AwaitCreated a) {
      meta.ddl()
          .awaitCreated(a.jobId())
          .whenComplete(
              (job, e) ->
                  r.replyTo()
                      .tell(
                          e != null
                              ? failed(r, e)
                              : new Answer(r.requestId(), a.jobId(), "", "", List.of())));
    } else if (r instanceof MetaProtocol.SetBackfillRateLimit s) {
      meta.setBackfillRateLimit(s.jobId(), s.rowsPerSecond())
          .whenComplete(
              (reply, e) -> r.replyTo().tell(e != null ? failed(r, e) : answer(r, reply)));
    } else if (r instanceof MetaProtocol.GetProgress) {
      if (!meta.isLeader()) {
        r.replyTo().tell(new Answer(r.requestId(), 0, "", MetaProtocol.NOT_LEADER, List.of()));
      } else {
        r.replyTo()
            .tell(new Answer(r.requestId(), 0, "", "", List.copyOf(meta.progress().values())));
      }
    }
  }

  private static Answer answer(MetaProtocol.Request r, DdlReply reply) {
    try {
      return new Answer(r.requestId(), DdlReply.valueOf(reply), "", "", List.of());
    } catch (DdlRejectedException rej) {
      return new Answer(r.requestId(), 0, rej.reason().name(), rej.getMessage(), List.of());
    }
  }

  private static Answer failed(MetaProtocol.Request r, Throwable e) {
    Throwable c = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
    String prefix = c instanceof NotLeaderException ? MetaProtocol.NOT_LEADER : "";
    return new Answer(r.requestId(), 0, "", prefix + c.getMessage(), List.of());
  }
}
