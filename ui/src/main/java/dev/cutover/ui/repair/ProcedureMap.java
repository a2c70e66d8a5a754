package dev.cutover.ui.repair;

import dev.cutover.engine.api.RepairStatus;
import dev.cutover.engine.api.RepairStatus.Kind;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where each screen of the procedure stands for the repair now, for the side bar: the screens before the next
 * step's are done, the next step's is current (or blocked, when the step is to fix what was found), the ones after
 * it are not reached yet. Derived from the repair's one status, as the banner's next step is.
 */
public final class ProcedureMap {

  /** The procedure's screens, in order. */
  public static final List<String> SCREENS = List.of("plan", "backfill", "reconcile", "cutover");

  /** A screen's place in the procedure. */
  public enum Step {
    DONE("done"),
    CURRENT("the next step is here"),
    BLOCKED("the next step is here, and it is to fix what was found"),
    NOT_YET("not reached yet");

    private final String words;

    Step(String words) {
      this.words = words;
    }

    public String words() {
      return words;
    }
  }

  private ProcedureMap() {}

  /** Each procedure screen's step for {@code s}; empty while the repair's status is not known. */
  public static Map<String, Step> of(RepairStatus s) {
    Map<String, Step> steps = new LinkedHashMap<>();
    if (s == null) {
      return steps;
    }
    Kind kind = s.next().kind();
    String here = NextStepWords.screen(s.next());
    int at = kind == Kind.FINISHED ? SCREENS.size() : SCREENS.indexOf(here);
    if (at < 0) {
      return steps;
    }
    boolean blocked = kind == Kind.REVIEW_DIFFERENCES || kind == Kind.FIX_LIVE_WRITER || kind == Kind.ABANDON;
    for (int i = 0; i < SCREENS.size(); i++) {
      steps.put(SCREENS.get(i), i < at ? Step.DONE : i > at ? Step.NOT_YET : blocked ? Step.BLOCKED : Step.CURRENT);
    }
    return steps;
  }
}
