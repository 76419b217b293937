package io.github.qsbench.core.strategy;

class SplitDispatcherQSTests extends AbstractQueueServiceContractTests {

	@Override
	Strategy strategy() {
		return Strategy.SPLIT_DISPATCHER;
	}

}
