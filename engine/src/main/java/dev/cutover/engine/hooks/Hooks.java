package dev.cutover.engine.hooks;

import dev.cutover.engine.api.Hook;
import dev.cutover.engine.api.StepRefusedException;
import dev.cutover.engine.api.TableSpec;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.json.JsonMapper;

/**
 * Runs the spec's hooks of an event: each command in the spec's order, without a shell, with the event as one JSON
 * document on its standard input (the spec, the target, the event, when, and what the step says of itself), within
 * its timeout. Each run goes to the audit trail through {@code audit}, with its exit and duration. A hook before a
 * step that fails refuses the step, naming the hook and the end of what it wrote; the hooks after it are not run.
 * A hook after a step that fails is said in the audit trail and the result, and changes nothing.
 */
public final class Hooks {

  private static final JsonMapper JSON = JsonMapper.builder()
      .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE).build();
  /** How much of what a hook wrote a sentence quotes: its last characters. */
  private static final int TAIL = 300;

  private final TableSpec spec;
  private final List<Hook> hooks;
  private final Consumer<String> audit;

  /** The hooks of {@code spec}; {@code audit} writes one line of the audit trail (on a cluster, every node's). */
  public Hooks(TableSpec spec, Consumer<String> audit) {
    this(spec, List.of(), audit);
  }

  /**
   * The hooks of {@code spec}, then {@code server}'s: those of the connection profile the repair runs through (a
   * team's paging or change log for that server, whatever the spec), run after the spec's own.
   */
  public Hooks(TableSpec spec, List<Hook> server, Consumer<String> audit) {
    this.spec = spec;
    this.hooks = java.util.stream.Stream.concat(spec.hooks().stream(), server.stream()).toList();
    this.audit = audit;
  }

  /** Whether any hook runs at {@code event}. */
  public boolean has(Hook.Event event) {
    return hooks.stream().anyMatch(h -> h.on() == event);
  }

  /** What one run of a hook did. */
  public record Ran(Hook hook, int exit, Duration took, String output, boolean timedOut) {
    public boolean failed() {
      return timedOut || exit != 0;
    }

    /** One sentence: the hook, its exit or timeout, and what it wrote last. */
    public String describe() {
      return "The " + hook.on().key() + " hook '" + hook.shown() + "' " + (timedOut ? "did not end within "
          + hook.timeout().toSeconds() + " s and was stopped" : exit == 0 ? "succeeded" : "failed (exit " + exit + ")")
          + " in " + took.toMillis() + " ms" + (output.isBlank() ? "" : "; it wrote: " + output.strip());
    }
  }

  /**
   * Runs the hooks of {@code event}, with {@code fields} in the event's JSON besides the spec's own; returns every
   * run. A hook before its step that fails is refused as {@code step} is: {@link StepRefusedException}, nothing
   * changed, the next hooks not run.
   */
  public List<Ran> run(Hook.Event event, String step, Map<String, Object> fields) {
    List<Hook> hooks = this.hooks.stream().filter(h -> h.on() == event).toList();
    if (hooks.isEmpty()) {
      return List.of();
    }
    Map<String, Object> document = new LinkedHashMap<>();
    document.put("event", event.key());
    document.put("spec", spec.name());
    document.put("target", spec.database().name() + "." + spec.targetTable().name());
    document.put("consumer_view", spec.database().name() + "." + spec.consumerView().name());
    document.put("at", Instant.now().toString());
    document.putAll(fields);
    byte[] input = (JSON.writeValueAsString(document) + "\n").getBytes(StandardCharsets.UTF_8);
    List<Ran> runs = new java.util.ArrayList<>();
    for (Hook hook : hooks) {
      Ran ran = runOne(hook, input);
      runs.add(ran);
      audit.accept(ran.describe());
      if (ran.failed() && event.before()) {
        throw new StepRefusedException(step, ran.describe() + ". A hook that runs before the " + step + " must "
            + "succeed: the " + step + " is refused and nothing was changed. Mend what the hook checks, or the hook "
            + "(hooks in the spec), and run it again.", List.of("hook " + event.key()), Optional.empty());
      }
    }
    return List.copyOf(runs);
  }

  private static Ran runOne(Hook hook, byte[] input) {
    Instant started = Instant.now();
    Process process;
    try {
      process = new ProcessBuilder(hook.command()).redirectErrorStream(true).start();
    } catch (IOException e) {
      return new Ran(hook, 127, Duration.between(started, Instant.now()), "it could not be started: "
          + e.getMessage(), false);
    }
    CompletableFuture<String> output = CompletableFuture.supplyAsync(() -> tail(process.getInputStream()));
    try (OutputStream stdin = process.getOutputStream()) {
      stdin.write(input);
    } catch (IOException e) {
      // A hook that reads nothing closes its input early: what it does is still what counts.
    }
    try {
      boolean ended = process.waitFor(hook.timeout().toMillis(), TimeUnit.MILLISECONDS);
      if (!ended) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        process.waitFor(5, TimeUnit.SECONDS);
      }
      String said = output.get(5, TimeUnit.SECONDS);
      return new Ran(hook, ended ? process.exitValue() : -1, Duration.between(started, Instant.now()), said, !ended);
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
      return new Ran(hook, -1, Duration.between(started, Instant.now()), "interrupted", true);
    } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
      return new Ran(hook, process.isAlive() ? -1 : process.exitValue(), Duration.between(started, Instant.now()), "",
          process.isAlive());
    }
  }

  /** The last {@link #TAIL} characters a hook wrote, on one line. */
  private static String tail(InputStream in) {
    try {
      String all = new String(in.readAllBytes(), StandardCharsets.UTF_8).replaceAll("\\s+", " ").strip();
      return all.length() <= TAIL ? all : "…" + all.substring(all.length() - TAIL);
    } catch (IOException e) {
      return "";
    }
  }
}
