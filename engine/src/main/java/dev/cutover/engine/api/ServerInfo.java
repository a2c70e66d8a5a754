package dev.cutover.engine.api;

/**
 * What Cutover found when it connected: the server's version, where it is, the working database
 * and its engine, and the user.
 */
public record ServerInfo(ServerVersion version, String address, String database, String databaseEngine,
    String user, boolean tls) {}
