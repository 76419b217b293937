package io.github.qsbench.core.thesis;

/** The answer of {@link AbstractMessage#tryGrab(long, long)}. */
public enum Grab {

	/** The caller now holds the message until its lease expires. */
	GRABBED,

	/** Declined: the message was completed and waits to be evicted. */
	DECLINED_COMPLETED,

	/** Declined: another consumer holds the message and its lease has not expired. */
	DECLINED_IN_FLIGHT

}
