package dev.tideway.protocol.catalog;

import dev.tideway.common.check.Checks;
import dev.tideway.common.plan.DispatcherKind;
import dev.tideway.common.vnode.VnodeBitmap;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A job's fragments and the placement of their actors, persisted at {@code fragments/<job-id>}.
 * Recovery rebuilds every actor from this record alone.
 *
 * <p>Invariants (checked here): fragment and actor ids are unique; every actor belongs to a
 * fragment of this graph; every edge names a fragment of this graph or of an upstream job ({@code
 * crossJob}).
 *
 * @param jobId the owning job
 * @param planCodec the name of the {@code PlanCodec} that encoded the fragment bodies
 * @param fragments the fragments, upstream before downstream
 * @param actors every actor of every fragment
 */
public record FragmentGraph(
    int jobId, String planCodec, List<Fragment> fragments, List<Actor> actors) {
  public static final int FORMAT_VERSION = 1;
  static final int FIELD_JOB_ID = 1;
  static final int FIELD_CODEC = 2;
  static final int FIELD_FRAGMENT = 3;
  static final int FIELD_ACTOR = 4;

  /**
   * An edge into a fragment.
   *
   * @param upstreamFragmentId the fragment whose dispatchers feed this one
   * @param kind how rows are routed
   * @param distKeys for HASH, the upstream output columns hashed to a vnode
   * @param crossJob the upstream fragment belongs to another job (MV on MV)
   */
  public record Edge(
      int upstreamFragmentId, DispatcherKind kind, List<Integer> distKeys, boolean crossJob) {
    public Edge {
      distKeys = List.copyOf(distKeys);
    }
  }

  /**
   * One fragment.
   *
   * @param fragmentId globally unique
   * @param distribution singleton or hash
   * @param upstreams its input edges (empty for source fragments)
   * @param stateTableIds the state tables its operators own
   * @param body the fragment's operator tree, encoded by the graph's plan codec
   */
  public record Fragment(
      int fragmentId,
      FragmentDistribution distribution,
      List<Edge> upstreams,
      List<Integer> stateTableIds,
      byte[] body) {
    public Fragment {
      upstreams = List.copyOf(upstreams);
      stateTableIds = List.copyOf(stateTableIds);
      body = body.clone();
    }

    @Override
    public byte[] body() {
      return body.clone();
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Fragment f
          && f.fragmentId == fragmentId
          && f.distribution == distribution
          && f.upstreams.equals(upstreams)
          && f.stateTableIds.equals(stateTableIds)
          && Arrays.equals(f.body, body);
    }

    @Override
    public int hashCode() {
      return fragmentId;
    }
  }

  /**
   * One actor: a parallel instance of a fragment placed on a compute node.
   *
   * @param actorId globally unique
   * @param fragmentId its fragment
   * @param node the compute node's address
   * @param vnodes the vnodes it owns
   * @param upstreamActorIds the actors that feed it, per the fragment's edges
   */
  public record Actor(
      int actorId,
      int fragmentId,
      String node,
      VnodeBitmap vnodes,
      List<Integer> upstreamActorIds) {
    public Actor {
      Checks.checkNotNull(node, "node of actor " + actorId);
      upstreamActorIds = List.copyOf(upstreamActorIds);
    }
  }

  public FragmentGraph {
    fragments = List.copyOf(fragments);
    actors = List.copyOf(actors);
    Set<Integer> fragmentIds = new HashSet<>();
    for (Fragment f : fragments) {
      Checks.checkArgument(
          fragmentIds.add(f.fragmentId()), "job %s: fragment %s twice", jobId, f.fragmentId());
    }
    for (Fragment f : fragments) {
      for (Edge e : f.upstreams()) {
        Checks.checkArgument(
            e.crossJob() || fragmentIds.contains(e.upstreamFragmentId()),
            "job %s: fragment %s reads unknown fragment %s",
            jobId,
            f.fragmentId(),
            e.upstreamFragmentId());
      }
    }
    Set<Integer> actorIds = new HashSet<>();
    for (Actor a : actors) {
      Checks.checkArgument(actorIds.add(a.actorId()), "job %s: actor %s twice", jobId, a.actorId());
      Checks.checkArgument(
          fragmentIds.contains(a.fragmentId()),
          "job %s: actor %s of unknown fragment %s",
          jobId,
          a.actorId(),
          a.fragmentId());
    }
  }

  /** The actors of {@code fragmentId}, in actor id order as stored. */
  public List<Actor> actorsOf(int fragmentId) {
    return actors.stream().filter(a -> a.fragmentId() == fragmentId).toList();
  }

  public byte[] encode() {
    TaggedWriter w =
        TaggedWriter.record(RecordKind.FRAGMENT_GRAPH, FORMAT_VERSION)
            .putInt(FIELD_JOB_ID, jobId)
            .putString(FIELD_CODEC, planCodec);
    for (Fragment f : fragments) {
      w.putNested(FIELD_FRAGMENT, FragmentCodec.encodeFragment(f));
    }
    for (Actor a : actors) {
      w.putNested(FIELD_ACTOR, FragmentCodec.encodeActor(a));
    }
    return w.toBytes();
  }

  public static FragmentGraph decode(byte[] data) {
    TaggedReader r = TaggedReader.record(data, RecordKind.FRAGMENT_GRAPH, FORMAT_VERSION);
    return new FragmentGraph(
        r.requireInt(FIELD_JOB_ID),
        r.getString(FIELD_CODEC, ""),
        r.nestedAll(FIELD_FRAGMENT).stream().map(FragmentCodec::decodeFragment).toList(),
        r.nestedAll(FIELD_ACTOR).stream().map(FragmentCodec::decodeActor).toList());
  }
}
