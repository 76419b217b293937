package io.github.qsbench.core.strategy;

class SplitJCToolsQSTests extends AbstractQueueServiceContractTests {

	@Override
	Strategy strategy() {
		return Strategy.SPLIT_JCTOOLS;
	}

}
