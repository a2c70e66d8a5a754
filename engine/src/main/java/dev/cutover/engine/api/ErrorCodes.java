package dev.cutover.engine.api;

import java.util.Set;

/**
 * The ClickHouse error codes the engine acts on, by name, in one place: which failures a later try
 * may cure, which mean the connection itself broke, and which the engine uses as an answer (a table
 * name already taken is how a compare-and-set loses). Compare them with
 * {@link QueryFailedException#errorCode()}:
 *
 * <pre>{@code
 * if (ErrorCodes.isTransient(e.errorCode())) { ... try again later ... }
 * }</pre>
 */
public final class ErrorCodes {

  public static final int UNEXPECTED_END_OF_FILE = 3;
  public static final int TABLE_ALREADY_EXISTS = 57;
  public static final int UNKNOWN_TABLE = 60;
  public static final int UNKNOWN_DATABASE = 81;
  public static final int TIMEOUT_EXCEEDED = 159;
  public static final int UNKNOWN_USER = 192;
  public static final int WRONG_PASSWORD = 193;
  public static final int REQUIRED_PASSWORD = 194;
  public static final int IP_ADDRESS_NOT_ALLOWED = 195;
  public static final int READONLY = 164;
  public static final int TOO_MANY_SIMULTANEOUS_QUERIES = 202;
  public static final int NO_FREE_CONNECTION = 203;
  public static final int SOCKET_TIMEOUT = 209;
  public static final int NETWORK_ERROR = 210;
  public static final int ABORTED = 236;
  public static final int MEMORY_LIMIT_EXCEEDED = 241;
  public static final int TABLE_IS_READ_ONLY = 242;
  /** The server could not reserve the disk space a write needs; Cutover says the same of its reserve. */
  public static final int NOT_ENOUGH_SPACE = 243;
  public static final int TOO_MANY_PARTS = 252;
  public static final int UNKNOWN_STATUS_OF_INSERT = 319;
  public static final int SYSTEM_ERROR = 425;
  public static final int DEADLOCK_AVOIDED = 473;
  public static final int AUTHENTICATION_FAILED = 516;
  public static final int KEEPER_EXCEPTION = 999;
  /** Not the server's: the JDBC driver's code for a connection that dropped. */
  public static final int UNKNOWN_EXCEPTION = 1002;

  /** Codes after which the same statement may succeed on a later try. */
  public static final Set<Integer> TRANSIENT = Set.of(UNEXPECTED_END_OF_FILE, TIMEOUT_EXCEEDED,
      READONLY, // a replica switching
      TOO_MANY_SIMULTANEOUS_QUERIES, NO_FREE_CONNECTION, SOCKET_TIMEOUT, NETWORK_ERROR, ABORTED,
      MEMORY_LIMIT_EXCEEDED, TABLE_IS_READ_ONLY, TOO_MANY_PARTS, UNKNOWN_STATUS_OF_INSERT, SYSTEM_ERROR,
      DEADLOCK_AVOIDED, KEEPER_EXCEPTION, UNKNOWN_EXCEPTION);

  /**
   * Codes a broken transport comes with (none at all, the driver's own, a socket timeout or network
   * error): with an I/O failure in the cause chain they mean the server gave no answer.
   */
  public static final Set<Integer> TRANSPORT = Set.of(0, UNKNOWN_EXCEPTION, SOCKET_TIMEOUT, NETWORK_ERROR);

  private ErrorCodes() {}

  /** Whether a statement that failed with {@code code} may succeed when tried again. */
  public static boolean isTransient(int code) {
    return TRANSIENT.contains(code);
  }
}
