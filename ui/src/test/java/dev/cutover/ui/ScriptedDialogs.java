package dev.cutover.ui;

import dev.cutover.engine.api.HourPartition;
import dev.cutover.engine.api.SavedProfile;
import dev.cutover.ui.dialogs.DialogService;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.testfx.util.WaitForAsyncUtils;

/** Answers the console's questions as a test scripts them, and remembers what was asked. */
public final class ScriptedDialogs implements DialogService {

  public final List<Object> asked = new CopyOnWriteArrayList<>();
  public volatile Path specFile;
  public volatile Path exportFile;
  public volatile boolean confirm = true;
  public volatile String ackReason = "v1 appended this hour twice on a retry; v2 is right";
  public volatile String withdrawReason = "acknowledged in error: the hour was not reviewed";
  public volatile String typedName;
  public volatile String rollbackReason = "desk 7's totals moved after the cutover; the fix is being checked";
  public volatile String declaredWriter = "visits-job 4.2";

  @Override
  public Optional<Path> chooseSpecFile(Optional<Path> current) {
    asked.add("spec");
    return Optional.ofNullable(specFile);
  }

  @Override
  public Optional<Path> chooseExportFile(String title, String suggestedName, String extension) {
    asked.add("export " + extension);
    return Optional.ofNullable(exportFile);
  }

  @Override
  public boolean confirmBackfill(BackfillRequest request) {
    asked.add(request);
    return confirm;
  }

  @Override
  public boolean confirmCancelRun(String runId, long hoursDone, long hoursTotal) {
    asked.add("cancel " + runId);
    return confirm;
  }

  @Override
  public boolean confirmCloseWhileRunning(String runId, long hoursDone, long hoursTotal) {
    asked.add("close " + runId);
    return confirm;
  }

  @Override
  public boolean confirmDeployView(dev.cutover.engine.api.LiveDeployment deployment, String target) {
    asked.add("deploy view from " + deployment.boundary());
    return confirm;
  }

  @Override
  public boolean confirmDeployLiveWriter(HourPartition from, String description) {
    asked.add("deploy " + from);
    return confirm;
  }

  @Override
  public Optional<String> declareLiveWriter(HourPartition from, String target) {
    asked.add("declare " + target + " from " + from);
    return Optional.ofNullable(declaredWriter);
  }

  /** The reason given when acknowledging a dependent that sees the replayed history (null declines). */
  public volatile String sideEffectReason = "the test's alerts reach no one; replayed hours page nobody";

  @Override
  public Optional<String> acknowledgeSideEffect(SideEffectRequest request) {
    asked.add(request);
    return Optional.ofNullable(sideEffectReason);
  }

  @Override
  public Optional<String> acknowledgeDifference(AckRequest request) {
    asked.add(request);
    return Optional.ofNullable(ackReason);
  }

  @Override
  public Optional<String> withdrawAcknowledgement(WithdrawRequest request) {
    asked.add(request);
    return Optional.ofNullable(withdrawReason);
  }

  @Override
  public Optional<String> confirmCutover(SwapRequest request) {
    asked.add(request);
    return Optional.ofNullable(typedName == null ? request.consumerView() : typedName);
  }

  /** The window an arm is asked with; null declines it. */
  public volatile java.time.Duration armWindow = java.time.Duration.ofHours(1);

  @Override
  public Optional<Arming> confirmArm(ArmRequest request) {
    asked.add(request);
    return Optional.ofNullable(armWindow).map(w -> new Arming(typedName == null ? request.consumerView() : typedName,
        w));
  }

  @Override
  public Optional<Confirmed> confirmRollback(SwapRequest request) {
    asked.add(request);
    return Optional.of(new Confirmed(typedName == null ? request.consumerView() : typedName,
        Optional.of(rollbackReason)));
  }

  @Override
  public boolean confirmCleanup(String target) {
    asked.add("cleanup " + target);
    return confirm;
  }

  /** The reason given when dropping v1 (null declines). */
  public volatile String dropReason = "the fix is confirmed by finance; the rollback is no longer needed";

  @Override
  public Optional<String> confirmDropV1(DropRequest request) {
    asked.add(request);
    return Optional.ofNullable(dropReason);
  }

  /** The reason given when abandoning a repair (null declines); the name typed is {@link #typedName} or the table's. */
  public volatile String abandonReason = "the fix itself was wrong; a corrected transform starts a new repair";

  @Override
  public Optional<Abandonment> confirmAbandon(AbandonRequest request) {
    asked.add(request);
    return Optional.ofNullable(abandonReason).map(r -> new Abandonment(typedName == null ? request.table() : typedName,
        r));
  }

  /** The profile the next profile dialog returns, or null for Cancel. */
  public volatile SavedProfile profile;
  /** The password typed into the next password dialog, or null for Cancel. */
  public volatile String password;

  @Override
  public Optional<SavedProfile> editProfile(Optional<SavedProfile> existing) {
    asked.add("profile " + existing.map(SavedProfile::name).orElse("(new)"));
    return Optional.ofNullable(profile);
  }

  @Override
  public Optional<char[]> askPassword(SavedProfile p) {
    asked.add("password " + p.name());
    return Optional.ofNullable(password).map(String::toCharArray);
  }

  @Override
  public boolean confirmDeleteProfile(SavedProfile p) {
    asked.add("delete profile " + p.name());
    return confirm;
  }

  /**
   * Does {@code action}, then waits for the question of {@code type} it asks. The console may ask only after a
   * read off the FX thread (the drop of v1 reads what still uses v1 first), so the question can come after the
   * click has returned.
   */
  public <T> T askedBy(Class<T> type, Runnable action) {
    long before = count(type);
    action.run();
    try {
      WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> count(type) > before);
    } catch (TimeoutException e) {
      throw new AssertionError("nothing of type " + type.getSimpleName() + " was asked within 60 s: " + asked, e);
    }
    return last(type);
  }

  private long count(Class<?> type) {
    return asked.stream().filter(type::isInstance).count();
  }

  @SuppressWarnings("unchecked")
  private <T> T last(Class<T> type) {
    for (int i = asked.size() - 1; i >= 0; i--) {
      if (type.isInstance(asked.get(i))) {
        return (T) asked.get(i);
      }
    }
    throw new AssertionError("nothing of type " + type.getSimpleName() + " was asked: " + asked);
  }
}
