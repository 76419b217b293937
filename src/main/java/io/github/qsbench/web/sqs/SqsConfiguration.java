package io.github.qsbench.web.sqs;

import io.github.qsbench.application.ExplicitQueues;
import io.github.qsbench.application.QueueOperations;
import io.github.qsbench.config.QueueServiceProperties;
import io.github.qsbench.web.AnsweringFilter;
import io.github.qsbench.web.ServerRequestTimers;
import io.github.qsbench.web.SuspendedRequests;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Registers the SQS face ({@link SqsFace}) on {@code /}. */
@Configuration(proxyBeanMethods = false)
class SqsConfiguration {

	/** Exactly {@code /}, first among its filters (see {@link AnsweringFilter}). */
	@Bean
	FilterRegistrationBean<SqsFace> sqsFace(QueueOperations queues, ExplicitQueues explicit,
			QueueServiceProperties properties, SqsProperties sqs, MeterRegistry registry, SuspendedRequests suspended) {
		int maxMessageBytes = (int) properties.maxMessageSize().toBytes();
		SqsActions actions = new SqsActions(queues, explicit, new QueueUrls(sqs), maxMessageBytes);
		return AnsweringFilter.registration(
				new SqsFace(actions, maxMessageBytes, new ServerRequestTimers(registry, "POST", "/"), suspended), "/");
	}

}
