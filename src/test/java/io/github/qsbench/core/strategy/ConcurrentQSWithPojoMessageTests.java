package io.github.qsbench.core.strategy;

class ConcurrentQSWithPojoMessageTests extends AbstractQueueServiceContractTests {

	@Override
	Strategy strategy() {
		return Strategy.CONCURRENT_POJO;
	}

}
