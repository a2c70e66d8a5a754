package dev.cutover.engine.ledger;

import dev.cutover.engine.api.Reconciliation.Fingerprint;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/** An acknowledgement's fingerprint as the JSON text stored beside it; empty text reads as none recorded. */
final class Fingerprints {

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private Fingerprints() {}

  static String json(Fingerprint seen) {
    return JSON.writeValueAsString(seen);
  }

  static Optional<Fingerprint> read(String text) {
    if (text == null || text.isBlank()) {
      return Optional.empty();
    }
    try {
      return Optional.of(JSON.readValue(text, Fingerprint.class));
    } catch (JacksonException e) {
      return Optional.empty();
    }
  }
}
