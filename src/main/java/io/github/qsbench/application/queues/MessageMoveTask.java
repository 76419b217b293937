package io.github.qsbench.application.queues;

/**
 * A message move task as it stood when read ({@link MessageMoveTasks}): SQS's
 * {@code ListMessageMoveTasks} entry in the application's terms.
 *
 * @param handle the task's handle, opaque to clients
 * @param source the dead-letter queue it moves messages from
 * @param destination where every message goes, {@code null}: each back to the queue it
 * came from
 * @param maxPerSecond its pace, {@code null}: as fast as the service moves them
 * @param startedMillis when it started, by the service's clock
 * @param toMove how many messages the source held when it started
 * @param moved how many it has moved so far
 * @param status where it is in its life
 * @param failureReason why it failed, {@code null} unless {@link Status#FAILED}
 */
public record MessageMoveTask(String handle, String source, String destination, Integer maxPerSecond,
		long startedMillis, long toMove, long moved, Status status, String failureReason) {

	/**
	 * A task's life, as SQS names it: {@code RUNNING}, then {@code COMPLETED} (the source
	 * held no more of the messages it held at the start), {@code FAILED} (a message could
	 * not move; it stays in the source), or {@code CANCELLING} and {@code CANCELLED}.
	 */
	public enum Status {

		RUNNING, COMPLETED, CANCELLING, CANCELLED, FAILED;

		/** Whether the task may still move a message: running, or cancelling. */
		public boolean active() {
			return this == RUNNING || this == CANCELLING;
		}

	}

}
