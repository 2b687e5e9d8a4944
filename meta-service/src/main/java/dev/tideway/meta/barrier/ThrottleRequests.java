package dev.tideway.meta.barrier;

import dev.tideway.barrier.message.Mutation;
import dev.tideway.protocol.meta.DdlReply;
import dev.tideway.protocol.meta.DdlReply.BackfillThrottled.Applied;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The backfill rate limits ({@code ALTER ... SET BACKFILL_RATE_LIMIT}) a barrier loop has to bring
 * to running actors, and when to answer each. The rate is already persisted in the job's fragment
 * graph when a request gets here.
 *
 * <p>A request's life: <b>deferred</b> while the job's actors are being built from the old graph
 * (its {@code Throttle} is scheduled right behind the job's {@code Add}) → <b>scheduled</b> as a
 * barrier command → answered {@link Applied#CHECKPOINT} when the checkpoint carrying it commits. A
 * recovery that drops the barrier (or starts before it was scheduled) moves it to <b>awaiting
 * recovery</b>: the reset rebuilds every actor from the persisted graph, so it is answered {@link
 * Applied#RECOVERY} once the world restarted. When the loop stops first (deposed, halted) every
 * request is answered {@link Applied#PERSISTED}.
 *
 * <p>Confined to the owner thread of {@link GlobalBarrierManager}. Invariant: a request is in
 * exactly one of the three places until it is answered, and every request is answered once.
 */
final class ThrottleRequests {
  /** One request and its caller's reply. */
  record Request(DdlReply.BackfillRateLimitSet set, CompletableFuture<DdlReply> reply) {
    Mutation.Throttle mutation() {
      return new Mutation.Throttle(set.rateByActor());
    }

    int jobId() {
      return set.jobId();
    }

    void answer(Applied applied, long epoch) {
      reply.complete(
          new DdlReply.BackfillThrottled(set.jobId(), set.rowsPerSecond(), applied, epoch));
    }
  }

  private final Map<Long, Request> scheduled = new HashMap<>();
  private final Map<Integer, List<Request>> deferred = new HashMap<>();
  private final List<Request> awaitingRecovery = new ArrayList<>();

  /** {@code r}'s Throttle rides on the barrier of command {@code commandId}. */
  void scheduled(long commandId, Request r) {
    scheduled.put(commandId, r);
  }

  /** The job's actors are being built from the graph before the new rate: wait for its Add. */
  void deferUntilAdd(Request r) {
    deferred.computeIfAbsent(r.jobId(), k -> new ArrayList<>()).add(r);
  }

  /** The requests deferred for job {@code jobId} (removed from here): its Add is scheduled. */
  List<Request> takeDeferred(int jobId) {
    List<Request> out = deferred.remove(jobId);
    return out == null ? List.of() : out;
  }

  /** Job {@code jobId} was removed before its actors ran: its deferred requests fail. */
  void jobRemoved(int jobId, String why) {
    takeDeferred(jobId)
        .forEach(r -> r.reply().completeExceptionally(new IllegalStateException(why)));
  }

  /** A reset will build every actor from the persisted graphs (the loop is recovering). */
  void awaitRecovery(Request r) {
    awaitingRecovery.add(r);
  }

  /** The checkpoint of barrier {@code epoch}, carrying these commands, committed. */
  void committed(List<Long> commandIds, long epoch) {
    for (long id : commandIds) {
      Request r = scheduled.remove(id);
      if (r != null) {
        r.answer(Applied.CHECKPOINT, epoch);
      }
    }
  }

  /**
   * A recovery started: the barriers of {@code failedCommandIds} are lost and builds in progress
   * are abandoned; the reset rebuilds those actors from the persisted graph.
   */
  void recoveryStarted(List<Long> failedCommandIds) {
    for (long id : failedCommandIds) {
      Request r = scheduled.remove(id);
      if (r != null) {
        awaitingRecovery.add(r);
      }
    }
    deferred.values().forEach(awaitingRecovery::addAll);
    deferred.clear();
  }

  /**
   * The world restarted from the persisted graphs at {@code committedEpoch}: answers the requests
   * awaiting it and returns their mutations (the progress tracker's view of the rates).
   */
  List<Mutation.Throttle> recovered(long committedEpoch) {
    List<Mutation.Throttle> out = new ArrayList<>();
    for (Request r : awaitingRecovery) {
      out.add(r.mutation());
      r.answer(Applied.RECOVERY, committedEpoch);
    }
    awaitingRecovery.clear();
    return out;
  }

  /** The loop stops acting: every open request is answered PERSISTED. */
  void settle() {
    scheduled.values().forEach(r -> r.answer(Applied.PERSISTED, 0));
    deferred.values().forEach(rs -> rs.forEach(r -> r.answer(Applied.PERSISTED, 0)));
    awaitingRecovery.forEach(r -> r.answer(Applied.PERSISTED, 0));
    scheduled.clear();
    deferred.clear();
    awaitingRecovery.clear();
  }

  /** Open requests, for tests and logs. */
  int size() {
    return scheduled.size()
        + awaitingRecovery.size()
        + deferred.values().stream().mapToInt(List::size).sum();
  }
}
