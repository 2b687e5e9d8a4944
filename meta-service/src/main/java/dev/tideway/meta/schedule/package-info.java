/**
 * Fragments → actors on compute nodes. {@link dev.tideway.meta.schedule.ActorScheduler#schedule}
 * decides, purely, how many actors each fragment gets, which vnodes each owns and on which compute
 * node it runs.
 *
 * <p>Invariants (checked on every result): the actors of a hash fragment own disjoint vnode sets
 * that cover all {@value dev.tideway.common.vnode.VirtualNode#COUNT} vnodes; a singleton fragment
 * has one actor owning all vnodes; both ends of a no-shuffle edge have the same number of actors,
 * pairwise on the same node with the same vnodes.
 */
package dev.tideway.meta.schedule;
