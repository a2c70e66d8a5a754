package dev.cutover.engine.connect;

import dev.cutover.engine.api.ConnectionFailedException;
import dev.cutover.engine.api.ConnectionFailedException.Reason;
import dev.cutover.engine.api.ConnectionProfile;
import dev.cutover.engine.api.ErrorCodes;
import dev.cutover.engine.api.Redaction;
import dev.cutover.engine.sql.Timeouts;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.sql.SQLException;

/** Turns what the driver throws while connecting into one sentence an operator can act on. */
final class ConnectionErrors {

  private ConnectionErrors() {}

  static ConnectionFailedException classify(ConnectionProfile profile, Exception failure) {
    String address = profile.address();
    var tls = TlsErrors.classify(profile, failure);
    if (tls.isPresent()) {
      return tls.get();
    }
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof UnknownHostException) {
        return new ConnectionFailedException(Reason.UNREACHABLE, "The host in " + address + " is not known to DNS; "
            + "check the spelling of the host name in the JDBC URL.", failure);
      }
      if (t instanceof ConnectException || t instanceof NoRouteToHostException
          || t.getClass().getSimpleName().equals("HttpHostConnectException")) {
        return new ConnectionFailedException(Reason.UNREACHABLE, "Nothing answers at " + address
            + "; check the host and port in the JDBC URL (the HTTP port, 8123 by default, or 8443 with TLS) "
            + "and that the server is running.", failure);
      }
      if (t.getClass().getSimpleName().equals("ConnectTimeoutException")
          || t instanceof SocketTimeoutException && !Timeouts.silent(t)) {
        return new ConnectionFailedException(Reason.UNREACHABLE, "Nothing at " + address + " accepted a connection "
            + "within " + Timeouts.words(Timeouts.CONNECT) + "; check the host and port in the JDBC URL, that the "
            + "server is running, and that no firewall drops the connection.", failure);
      }
      if (Timeouts.silent(t)) {
        return new ConnectionFailedException(Reason.UNREACHABLE, "The server at " + address + " accepted the "
            + "connection but sent no answer within " + Timeouts.words(Timeouts.CHECK) + "; check that the JDBC URL "
            + "names ClickHouse's HTTP port (8123 by default, 8443 with TLS), and that the server is not stopped, "
            + "hung or overloaded.", failure);
      }
      if (t instanceof SQLException sql && sql.getErrorCode() != 0) {
        return fromServer(profile, sql.getErrorCode(), firstLine(sql.getMessage()), failure);
      }
    }
    return new ConnectionFailedException(Reason.OTHER, "Could not connect to " + address + ": "
        + firstLine(failure.getMessage()) + ".", failure);
  }

  private static ConnectionFailedException fromServer(ConnectionProfile profile, int code, String message, Exception failure) {
    return switch (code) {
      case ErrorCodes.UNKNOWN_USER, ErrorCodes.WRONG_PASSWORD, ErrorCodes.REQUIRED_PASSWORD, ErrorCodes.AUTHENTICATION_FAILED ->
          new ConnectionFailedException(Reason.AUTHENTICATION, "The server at " + profile.address()
              + " refused user '" + profile.user() + "' with the given password (" + profile.password().describe()
              + "); check the user name and the password.", failure);
      case ErrorCodes.IP_ADDRESS_NOT_ALLOWED ->
          new ConnectionFailedException(Reason.AUTHENTICATION, "The server at " + profile.address()
              + " does not accept user '" + profile.user() + "' from this machine's address; ask its "
              + "administrator to allow it in the user's networks.", failure);
      case ErrorCodes.TIMEOUT_EXCEEDED ->
          new ConnectionFailedException(Reason.UNREACHABLE, "The server at " + profile.address() + " did not finish "
              + "the connection check, one small query, within " + Timeouts.words(Timeouts.CHECK_ON_SERVER)
              + "; it is overloaded: try again once it has caught up.", failure);
      case ErrorCodes.UNKNOWN_DATABASE ->
          new ConnectionFailedException(Reason.UNKNOWN_DATABASE, "The database '" + profile.database()
              + "' does not exist on " + profile.address() + "; create it with CREATE DATABASE "
              + profile.database() + " ENGINE = Atomic, or choose an existing database.", failure);
      default -> new ConnectionFailedException(Reason.OTHER, "The server at " + profile.address()
          + " refused the connection check with code " + code + ": " + message, failure);
    };
  }

  /**
   * The first line of a driver's or server's message, with any credential in it masked: the driver
   * repeats the URL it was given in some of its messages.
   */
  static String firstLine(String message) {
    if (message == null) {
      return "no message";
    }
    String line = message.strip().split("\\R", 2)[0];
    // ClickHouse appends long hints to some errors; the first sentence is the one that matters.
    int hint = line.indexOf(" If you use ClickHouse Cloud");
    return Redaction.text(hint > 0 ? line.substring(0, hint) : line);
  }
}
