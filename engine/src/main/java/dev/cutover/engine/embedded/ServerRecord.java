package dev.cutover.engine.embedded;

import java.time.Instant;

/**
 * What a running embedded server publishes in its data directory so that others can join it;
 * {@code restricted} says whether they must connect as {@code operator} with the directory's secret.
 */
record ServerRecord(long pid, String host, int port, Instant started, boolean restricted) {}
