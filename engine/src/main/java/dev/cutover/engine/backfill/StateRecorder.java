package dev.cutover.engine.backfill;

import dev.cutover.engine.api.BackfillEvent;
import dev.cutover.engine.api.BackfillEvent.Listener;
import dev.cutover.engine.api.QueryFailedException;
import dev.cutover.engine.api.RunRecord;
import dev.cutover.engine.api.RunState;
import dev.cutover.engine.ledger.StateStore;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Writes a run's state changes where others read them: the store (by compare-and-set), the audit
 * trail and the listener. Keeps the run's record as last written or, while the server is away, as
 * it would have been written.
 */
final class StateRecorder {

  private final StateStore store;
  private final Listener listener;
  private final AtomicReference<RunRecord> run;
  // One change at a time from this process: a pause from the console and the run's own end would
  // otherwise race each other for the same step of the record, and one of them would be refused.
  private final ReentrantLock oneAtATime = new ReentrantLock();
  private boolean ended;

  StateRecorder(StateStore store, Listener listener, RunRecord run) {
    this.store = store;
    this.listener = listener;
    this.run = new AtomicReference<>(run);
  }

  String id() {
    return run.get().id();
  }

  RunRecord record() {
    return run.get();
  }

  /** Records a change of a run that goes on; ignored once the run's end is recorded. */
  void change(RunState to, String message) {
    write(to, message, false);
  }

  /** Records the run's end (through running again when it ends paused); nothing is recorded after it. */
  void end(RunState to, String message) {
    write(to, message, true);
  }

  /**
   * The run's end, known here only: the server stopped answering, and a write would wait for it. The
   * store keeps the run as it last wrote it, which reads as interrupted once this process lets go of
   * the run; a resume goes on from the ledger.
   */
  void endUnrecorded(RunState to, String message) {
    oneAtATime.lock();
    try {
      if (ended) {
        return;
      }
      ended = true;
      run.set(run.get().with(to, message, Instant.now()));
    } finally {
      oneAtATime.unlock();
    }
    listener.on(new BackfillEvent.StateChanged(id(), to, message));
  }

  private void write(RunState to, String message, boolean last) {
    oneAtATime.lock();
    try {
      if (ended) {
        return;
      }
      ended = last;
      if (last && run.get().state() == RunState.PAUSED) {
        // A paused run cannot succeed straight away: its state machine goes through running.
        record(RunState.RUNNING, "finishing");
      }
      record(to, message);
    } finally {
      oneAtATime.unlock();
    }
  }

  private void record(RunState to, String message) {
    try {
      run.set(store.transition(run.get(), to, message));
      store.audit(id(), "state", to.name().toLowerCase() + ": " + message);
    } catch (QueryFailedException e) {
      // The server is away: the run goes on with the state it has; a resume reads the ledger.
      run.set(run.get().with(to, message, Instant.now()));
    }
    listener.on(new BackfillEvent.StateChanged(id(), to, message));
  }

  /** The run's record keeps its throttle as it is now: a resume goes on with it. */
  void parameters(String parameters) {
    try {
      store.saveRun(run.updateAndGet(r -> r.withParameters(parameters, Instant.now())));
    } catch (QueryFailedException e) {
      // The throttle applies here at once; only the record of it waits for the server.
    }
  }

  void audit(String action, String detail) {
    store.audit(id(), action, detail);
  }

  /** After a refusal the store's record is the truth: another writer moved the run. */
  void reread() {
    try {
      store.run(id()).ifPresent(run::set);
    } catch (QueryFailedException e) {
      // Kept as it was: the server that refused is gone again.
    }
  }
}
