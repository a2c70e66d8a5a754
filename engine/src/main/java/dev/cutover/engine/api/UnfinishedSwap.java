package dev.cutover.engine.api;

/**
 * What a step found of a switch across nodes that its process did not finish, and what it did about it.
 *
 * @param sentence what was found and done, for the operator
 * @param settled whether every node reads one version now, with no switch left under way: false while the
 *     switch's own process still runs, or while a node that does not answer keeps it from being finished
 */
public record UnfinishedSwap(String sentence, boolean settled) {}
