package dev.cutover.engine.api;

import java.nio.file.Path;

/** One server of the embedded local cluster: its shard, where it serves HTTP, its process and its data. */
public record LocalNode(int shard, String host, int port, long pid, Path dataDirectory) {}
