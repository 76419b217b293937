package io.github.qsbench.sqs;

import java.time.InstantSource;
import java.util.List;

import io.github.qsbench.application.messages.MessageOperations;
import io.github.qsbench.application.queues.MessageMoveTasks;
import io.github.qsbench.application.queues.QueueOperations;
import io.github.qsbench.http.AnsweringFilter;
import io.github.qsbench.http.ServerRequestTimers;
import io.github.qsbench.http.SuspendedRequests;
import io.github.qsbench.security.SecurityProperties;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Registers the SQS face ({@link SqsFace}) on {@code /}, serving the actions of its
 * handlers.
 */
@Configuration(proxyBeanMethods = false)
class SqsConfiguration {

	/**
	 * Exactly {@code /}, and the queue URLs' paths for the query protocol, first among
	 * their filters (see {@link AnsweringFilter}).
	 */
	@Bean
	FilterRegistrationBean<SqsFace> sqsFace(QueueOperations queues, MessageOperations messages, SqsProperties sqs,
			MeterRegistry registry, SuspendedRequests suspended, MessageMoveTasks tasks, SecurityProperties security,
			InstantSource clock) {
		int maxMessageBytes = messages.maxMessageBytes();
		QueueUrls urls = new QueueUrls(sqs);
		SqsAccess access = new SqsAccess(security.sigv4(), sqs, queues, urls, clock);
		QueueAttributeActions attributes = new QueueAttributeActions(queues, urls, access);
		SqsActions actions = new SqsActions(List.of(new QueueActions(queues, urls, attributes), attributes,
				new SendActions(queues, messages, urls, maxMessageBytes),
				new ReceiveActions(queues, messages, urls, sqs.accountId()), new DeleteActions(queues, messages, urls),
				new VisibilityActions(queues, messages, urls), new DeadLetterActions(queues, urls),
				new MoveTaskActions(queues, urls, tasks), new TagActions(queues, urls),
				new PermissionActions(queues, urls)));
		QueryProtocol query = new QueryProtocol(actions, urls, maxMessageBytes, registry, suspended, access);
		FilterRegistrationBean<SqsFace> registration = AnsweringFilter.registration(new SqsFace(actions,
				maxMessageBytes, new ServerRequestTimers(registry, "POST", "/"), suspended, query, access), "/");
		registration.addUrlPatterns(urls.pathPattern());
		return registration;
	}

	/**
	 * The face's message actions, answered on the selector (see
	 * {@link SqsSelectorRoute}).
	 */
	@Bean
	SqsSelectorRoute sqsSelectorRoute(FilterRegistrationBean<SqsFace> face, MeterRegistry registry,
			SuspendedRequests suspended) {
		return new SqsSelectorRoute(face.getFilter(), new ServerRequestTimers(registry, "POST", "/"), suspended);
	}

}
