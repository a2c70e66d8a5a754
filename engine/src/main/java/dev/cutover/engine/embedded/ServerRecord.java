package dev.cutover.engine.embedded;

import java.time.Instant;

/** What a running embedded server publishes in its data directory so that others can join it. */
record ServerRecord(long pid, String host, int port, Instant started) {}
