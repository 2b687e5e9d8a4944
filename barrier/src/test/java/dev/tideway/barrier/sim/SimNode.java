package dev.tideway.barrier.sim;

import dev.tideway.barrier.align.BarrierAligner;
import dev.tideway.barrier.control.BarrierCompleted;
import dev.tideway.barrier.control.InjectBarrier;
import dev.tideway.barrier.control.NodeFailure;
import dev.tideway.barrier.control.SyncResult;
import dev.tideway.barrier.control.TableStatsDelta;
import dev.tideway.barrier.local.LocalBarrierEnvironment;
import dev.tideway.barrier.local.LocalBarrierManager;
import dev.tideway.barrier.local.SyncRequest;
import dev.tideway.barrier.message.Barrier;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * One compute node: a {@link LocalBarrierManager} whose environment is the simulation, a source
 * root actor, one backfill actor per job, and (on node 1) a merge actor aligning the barriers of
 * every node's source. Every delivery captures the node's incarnation and is dropped if the node
 * crashed or was reset since (its actors were rebuilt).
 */
final class SimNode implements LocalBarrierEnvironment<String> {
  final int id;
  final SimWorld world;
  final int sourceActor;
  final List<SimBackfillActor> backfills = new ArrayList<>();

  /** Only on node 1: the merge actor and its per-input buffers (blocked inputs are not polled). */
  int mergeActor = -1;

  BarrierAligner aligner;
  List<ArrayDeque<Barrier>> mergeInputs;

  LocalBarrierManager<String> lbm;
  boolean up = true;

  /** Restarted but not yet reset by meta's recovery: refuses injects. */
  boolean needsReset;

  /** An actor failed: actors stop until recovery resets the node. */
  boolean stopped;

  /** What the source last saw of Pause/Resume: new actors start in this state (Add.paused). */
  boolean sourcePaused;

  int incarnation;
  Channel toMeta;
  Channel fromMeta;

  /** Ordered barrier inbox of the source actor, and the merge actor's output (collect) link. */
  Channel sourceInbox;

  Channel mergeOut;

  SimNode(int id, SimWorld world) {
    this.id = id;
    this.world = world;
    this.sourceActor = id * 100;
    this.lbm = new LocalBarrierManager<>(id, this);
  }

  /**
   * The actors a barrier must collect: source, backfills of deployed (or deploying) jobs, merge.
   */
  int[] actorsToCollect() {
    return actorsToCollect(false);
  }

  /** With {@code includeDeploying}, also the actors of a job whose Add is about to be injected. */
  int[] actorsToCollect(boolean includeDeploying) {
    List<Integer> list = new ArrayList<>();
    list.add(sourceActor);
    for (SimBackfillActor b : backfills) {
      if (b.job.deployed || (includeDeploying && b.job.deploying)) {
        list.add(b.actorId);
      }
    }
    if (mergeActor >= 0) {
      list.add(mergeActor);
    }
    return list.stream().mapToInt(Integer::intValue).toArray();
  }

  /** Runs {@code body} later on this node unless the node crashed or was reset in between. */
  void later(long delayMs, String name, Runnable body) {
    int inc = incarnation;
    world.scheduler.after(
        delayMs,
        name,
        () -> {
          if (up && !needsReset && inc == incarnation && !stopped) {
            body.run();
          }
        });
  }

  /** Delivers over an ordered channel unless the node crashed or was reset in between. */
  void deliver(Channel ch, String name, Runnable body) {
    int inc = incarnation;
    ch.send(
        name,
        () -> {
          if (up && !needsReset && inc == incarnation && !stopped) {
            body.run();
          }
        });
  }

  void onInject(InjectBarrier req) {
    if (needsReset) {
      return;
    }
    lbm.inject(req);
  }

  @Override
  public void sendBarrier(int actorId, Barrier barrier) {
    deliver(
        sourceInbox,
        "source " + actorId + " gets " + barrier.curr(),
        () -> world.sourceProcesses(this, barrier));
  }

  @Override
  public void sync(SyncRequest request) {
    later(
        world.random.nextLong(2, 60),
        "node " + id + " synced " + request.epoch().curr(),
        () ->
            lbm.onSyncCompleted(
                request.epoch().curr(),
                request.generation(),
                new SyncResult<>(
                    List.of("sst-n" + id + "-e" + request.epoch().prev()),
                    upstreamWrites(request))));
  }

  /**
   * Upstream updates and deletes add storage keys (tombstones, versions) but no rows to backfill.
   */
  private List<TableStatsDelta> upstreamWrites(SyncRequest request) {
    List<TableStatsDelta> out = new ArrayList<>();
    for (int t : request.tablesToSync()) {
      if (world.random.chance(0.4)) {
        out.add(new TableStatsDelta(t, world.random.nextLong(1, 300), 0, false));
      }
    }
    return out;
  }

  @Override
  public void completed(BarrierCompleted<String> completed) {
    int metaInc = world.metaIncarnation;
    toMeta.send(
        "node " + id + " completes " + completed.epoch().curr(),
        () -> world.metaOnCompleted(metaInc, completed));
  }

  @Override
  public void failed(NodeFailure failure) {
    int metaInc = world.metaIncarnation;
    toMeta.send("node " + id + " fails", () -> world.metaOnFailure(metaInc, failure));
  }

  /** Recovery: new pairing state at {@code generation}, actors rebuilt from durable state. */
  void reset(long generation) {
    incarnation++;
    if (lbm.generation() < generation) {
      lbm.reset(generation);
    }
    needsReset = false;
    stopped = false;
    if (mergeActor >= 0) {
      aligner = new BarrierAligner("actor " + mergeActor + " Merge", mergeInputs.size());
      mergeInputs.forEach(ArrayDeque::clear);
    }
  }

  void crash() {
    up = false;
    incarnation++;
  }

  void restart() {
    up = true;
    needsReset = true;
    stopped = false;
    incarnation++;
    lbm = new LocalBarrierManager<>(id, this);
  }
}
