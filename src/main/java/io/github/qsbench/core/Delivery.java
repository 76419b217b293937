package io.github.qsbench.core;

/**
 * The delivery guarantee of a strategy, assuming consumers complete within their lease.
 */
public enum Delivery {

	EXACTLY_ONCE, AT_LEAST_ONCE

}
