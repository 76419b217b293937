package io.github.qsbench.sqs;

import java.util.Map;

/**
 * A family of SQS actions, the ElasticMQ way: one small class per action or family, its
 * actions named in {@link #actions()}. Adding an action takes a method and an entry
 * there.
 */
interface SqsHandler {

	/** This family's actions by their SQS names ({@code CreateQueue}, ...). */
	Map<String, SqsAction> actions();

}
