package io.github.qsbench.core.strategy;

class SplitConcurrentQSTests extends AbstractQueueServiceContractTests {

	@Override
	Strategy strategy() {
		return Strategy.SPLIT_CONCURRENT;
	}

}
