package dev.cutover.engine.api;

import java.util.function.Supplier;

/**
 * Where a password comes from. A profile stores only this, never the password: it is read when a
 * connection is opened and handed to the pool, not written anywhere.
 */
public sealed interface PasswordSource {

  /** The password as characters; an empty array for no password. */
  char[] resolve();

  /** A short description for screens and logs, which never includes the password itself. */
  String describe();

  static PasswordSource none() {
    return new None();
  }

  /** The value of an environment variable, such as {@code CUTOVER_PASSWORD}. */
  static PasswordSource environment(String variable) {
    return new Environment(variable);
  }

  /** The first line of a file readable by its owner only, such as an embedded server's operator secret. */
  static PasswordSource file(java.nio.file.Path path) {
    return new File(path);
  }

  /** Asked for when needed, for example by an interactive prompt. */
  static PasswordSource prompt(Supplier<char[]> prompt) {
    return new Prompt(prompt);
  }

  record None() implements PasswordSource {
    @Override
    public char[] resolve() {
      return new char[0];
    }

    @Override
    public String describe() {
      return "no password";
    }
  }

  record Environment(String variable) implements PasswordSource {
    public Environment {
      if (variable == null || !variable.matches("[A-Za-z_][A-Za-z0-9_]*")) {
        // Not repeated: an operator in a hurry may have typed the password where its variable's name belongs.
        throw new InvalidInputException("password-env", "The name given for the password's environment variable "
            + "is not a variable name (it is not repeated here, in case it is the password itself); give the name, "
            + "in letters, digits and underscores, for example CUTOVER_PASSWORD.");
      }
    }

    @Override
    public char[] resolve() {
      String value = System.getenv(variable);
      return value == null ? new char[0] : value.toCharArray();
    }

    @Override
    public String describe() {
      return "password from $" + variable;
    }
  }

  record File(java.nio.file.Path path) implements PasswordSource {
    @Override
    public char[] resolve() {
      try {
        return java.nio.file.Files.readString(path).strip().toCharArray();
      } catch (java.io.IOException e) {
        throw new ConnectionFailedException(ConnectionFailedException.Reason.AUTHENTICATION, "The password file "
            + path + " cannot be read (" + e.getMessage() + "); it belongs to the user who started the embedded "
            + "server there: run Cutover as that user, or choose a data directory of your own.", e);
      }
    }

    @Override
    public String describe() {
      return "password from " + path;
    }
  }

  record Prompt(Supplier<char[]> prompt) implements PasswordSource {
    @Override
    public char[] resolve() {
      char[] value = prompt.get();
      return value == null ? new char[0] : value;
    }

    @Override
    public String describe() {
      return "password asked for at connect";
    }

    @Override
    public String toString() {
      return "Prompt[]";
    }
  }
}
