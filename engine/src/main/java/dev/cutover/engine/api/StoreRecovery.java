package dev.cutover.engine.api;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * What a recovery of an embedded server's store did: the empty table definitions it set aside (as
 * {@code database.table}) and where it kept them, Cutover's own tables it gave their data back (table to the
 * folder of the store it attached), and the tables left for a person to attach by hand, whose data stays in the
 * store.
 *
 * @param setAside every empty definition moved aside, as {@code database.table}
 * @param folder where they were moved, with a list of what came from where; null when there were none
 * @param restored Cutover's own tables attached to their data again, each with its folder's UUID
 * @param byHand the other tables set aside: their data is in the store, their definition is the operator's to write
 */
public record StoreRecovery(List<String> setAside, Path folder, Map<String, String> restored, List<String> byHand) {

  public StoreRecovery {
    setAside = List.copyOf(setAside);
    restored = Map.copyOf(restored);
    byHand = List.copyOf(byHand);
  }

  /** Whether there was anything to recover. */
  public boolean anything() {
    return !setAside.isEmpty();
  }
}
