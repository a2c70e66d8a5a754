package dev.cutover.engine.api;

/** Something that tells a listener what happens until it is closed. Closing twice is harmless. */
public interface Subscription extends AutoCloseable {

  @Override
  void close();
}
