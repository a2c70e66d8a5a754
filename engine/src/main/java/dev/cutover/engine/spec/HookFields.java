package dev.cutover.engine.spec;

import dev.cutover.engine.api.Hook;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Hooks as a spec or a saved connection profile writes them, {@code hooks: [{on, command, timeout}]}: a command (a
 * list, the program first; no shell reads it) run when the repair reaches the step {@code on} names, within {@code
 * timeout} (30 s unless given, at most 10 minutes). One reading for both, so that a profile's hooks follow the
 * spec's rules; and the spec's text without them, for its hash.
 */
public final class HookFields {

  private HookFields() {}

  /**
   * The {@code hooks} list of {@code holder} (a saved connection profile's, read from {@code origin}): the server's
   * own hooks, run at every repair made through that profile.
   */
  public static List<Hook> of(Map<String, Object> holder, String origin) {
    return hooks(new Fields(origin, "", holder));
  }

  /** The {@code hooks} list of a spec's fields. */
  static List<Hook> hooks(Fields f) {
    List<Hook> hooks = new ArrayList<>();
    for (Fields h : f.optionalList("hooks")) {
      h.allowOnly(Set.of("on", "command", "timeout", "description"));
      String on = h.text("on");
      Hook.Event event = java.util.Arrays.stream(Hook.Event.values()).filter(e -> e.key().equals(on)).findFirst()
          .orElseThrow(() -> h.error("on", on, "one of " + java.util.Arrays.stream(Hook.Event.values())
              .map(Hook.Event::key).toList()));
      List<String> command = h.texts("command");
      hooks.add(new Hook(event, command, h.duration("timeout", Duration.ofSeconds(30), Duration.ofMinutes(10))));
    }
    return hooks;
  }

  /**
   * The spec's text without its top-level {@code hooks} block: what a hook runs says nothing about v1, v2 or the fix,
   * so adding or changing one keeps the spec's hash, and the verdict made under it. A block is its key's line and
   * the lines under it (indented, list items, blank or comments) up to the next top-level key.
   */
  static String withoutHooks(String yaml) {
    StringBuilder kept = new StringBuilder(yaml.length());
    boolean inHooks = false;
    for (String line : yaml.split("(?<=\n)")) {
      boolean topLevel = !line.isEmpty() && !Character.isWhitespace(line.charAt(0)) && line.charAt(0) != '-'
          && line.charAt(0) != '#';
      if (topLevel) {
        inHooks = line.matches("hooks\\s*:.*\\R?");
      }
      if (!inHooks) {
        kept.append(line);
      }
    }
    return kept.toString();
  }
}
