package dev.cutover.engine.api;

/**
 * Every failure the engine reports to an operator. The message is a whole sentence that says what
 * happened and what to do about it; callers render it as it is, without a stack trace.
 *
 * <p>The hierarchy is closed so that a command line can map each kind to an exit code with one
 * {@code switch}:
 *
 * <pre>{@code
 * int exit = switch (e) {
 *   case InvalidInputException i -> 2;
 *   case ConnectionFailedException c -> 3;
 *   case EmbeddedEngineException s -> 4;
 *   case QueryFailedException q -> 5;
 *   case HeldByAnotherProcessException h -> 8; // try again later
 *   case StepRefusedException r -> 6;
 * };
 * }</pre>
 */
public sealed abstract class CutoverException extends RuntimeException
    permits InvalidInputException,
        ConnectionFailedException,
        EmbeddedEngineException,
        QueryFailedException,
        StepRefusedException {

  protected CutoverException(String sentence, Throwable cause) {
    super(sentence, cause);
  }

  /** Whether trying the same thing again, unchanged, can succeed. */
  public abstract boolean retryable();
}
