package io.github.qsbench.application;

import io.github.qsbench.core.Peeked;

/**
 * A message as a peek saw it, leasing nothing: its state and delivery count at one moment
 * ({@link Peeked}), and the message as it was sent ({@link StoredMessage}).
 */
public record PeekedMessage(Peeked peeked, StoredMessage message) {
}
