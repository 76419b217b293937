package io.github.qsbench.rest;

import io.github.qsbench.http.HttpClientSupport;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;

import io.github.qsbench.application.Limits;
import io.github.qsbench.application.OutgoingMessage;
import io.github.qsbench.application.QueueNames;
import io.github.qsbench.application.queues.QueueTags;
import io.github.qsbench.http.HttpTestBase;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.test.context.TestPropertySource;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

/**
 * The served OpenAPI description covers every controller mapping with the statuses it
 * answers.
 */
@TestPropertySource(properties = "qs.max-message-size=1KB")
class OpenApiHttpTests extends HttpTestBase {

	@Autowired
	@Qualifier("requestMappingHandlerMapping")
	RequestMappingHandlerMapping mappings;

	@Test
	void apiDocs_describeEveryQueueEndpoint() {
		HttpResponse<String> response = new HttpClientSupport(this.port).get("/v3/api-docs");
		assertThat(response.statusCode()).isEqualTo(200);
		DocumentContext spec = JsonPath.parse(response.body());
		assertThat(spec.read("$.openapi", String.class)).startsWith("3.");

		int described = 0;
		for (Map.Entry<RequestMappingInfo, HandlerMethod> mapping : this.mappings.getHandlerMethods().entrySet()) {
			if (!Set.of(QueueController.class, MessageController.class).contains(mapping.getValue().getBeanType())) {
				continue;
			}
			for (String path : mapping.getKey().getPathPatternsCondition().getPatternValues()) {
				for (RequestMethod method : mapping.getKey().getMethodsCondition().getMethods()) {
					Map<String, Object> operation = spec.read("$.paths['" + path + "']." + method.name().toLowerCase());
					assertThat(operation).as(method + " " + path).isNotNull();
					described++;
				}
			}
		}
		assertThat(described)
			.as("push, push in JSON form, batch push, poll, long poll, browse, look (HEAD), purge, complete, "
					+ "batch complete, lease change, list, one queue, settings (PUT), delete queue, redrive")
			.isEqualTo(16);

		assertThat(responses(spec, "/queues/{queue}/messages", "post")).containsAll(Set.of("201", "400", "413", "429"));
		assertThat(responses(spec, "/queues/{queue}/messages", "get")).containsAll(Set.of("200", "204", "400"));
		assertThat(spec.read("$.paths['/queues/{queue}/messages'].get.parameters[*].name", List.class)).contains("max",
				"wait", "peek");
		assertThat(spec.read("$.paths['/queues/{queue}/messages'].get.parameters[?(@.name == 'wait')].required",
				List.class))
			.as("one operation documents both GET mappings: wait is optional")
			.doesNotContain(true);
		assertThat(responses(spec, "/queues/{queue}/messages/batch", "post"))
			.containsAll(Set.of("201", "400", "413", "415", "429"));
		assertThat(responses(spec, "/queues/{queue}/messages/completions", "post"))
			.containsAll(Set.of("200", "400", "413", "415"));
		assertThat(responses(spec, "/queues/{queue}/messages", "head")).containsAll(Set.of("200", "204", "400"));
		assertThat(responses(spec, "/queues/{queue}/messages/{id}", "delete"))
			.containsAll(Set.of("204", "400", "404", "409", "412"));
		assertThat(responses(spec, "/queues/{queue}", "get")).containsAll(Set.of("200", "400", "404"));
		assertThat(responses(spec, "/queues/{queue}", "delete")).containsAll(Set.of("204", "400", "404"));
		assertThat(responses(spec, "/queues/{queue}/messages/{id}", "patch"))
			.containsAll(Set.of("204", "400", "404", "409", "412", "415", "428"));
		assertThat(responses(spec, "/queues/{queue}/messages", "delete")).containsAll(Set.of("204", "400"));
		assertThat(responses(spec, "/queues/{queue}", "put")).containsAll(Set.of("200", "201", "400", "429"));
		assertThat(responses(spec, "/queues/{queue}/redrive", "post")).containsAll(Set.of("200", "400"));
		assertThat(spec.read("$.paths['/queues/{queue}/messages'].post.requestBody.content['text/plain']", Map.class))
			.isNotNull();
		assertThat(spec.read("$.paths['/queues/{queue}/messages'].post.requestBody.content['application/json']",
				Map.class))
			.isNotNull();
		assertThat(spec.read("$.paths['/queues/{queue}/messages'].post.parameters[0].schema.pattern", String.class))
			.isEqualTo("^" + QueueNames.QUEUE_NAME_REGEX + "$");
		assertThat(spec.read("$.paths['/queues/{queue}/messages'].post.parameters[*].name", List.class))
			.as("a push names its delay and its group (a fair queue's tenant, a FIFO queue's group)")
			.contains("delay", "group");
		assertThat(spec.read("$.paths['/queues/{queue}/messages'].post.parameters[?(@.name == 'group')].schema.pattern",
				List.class))
			.containsExactly(OutgoingMessage.ID_PATTERN);
		assertThat(spec.read("$.components.schemas.PushMessage.properties", Map.class).keySet())
			.as("the JSON form and a batch entry")
			.containsExactly("body", "attributes", "group", "deduplicationId");
		assertThat(spec.read("$.components.schemas.FairView.properties", Map.class).keySet())
			.as("GET /queues/{queue}'s fair")
			.containsExactlyInAnyOrder("noisyGroups", "quietVisible", "quietNotVisible", "quietDelayed",
					"quietOldestAgeSeconds");
		assertThat(spec.read("$.components.schemas.Browsed.properties", Map.class).keySet()).as("a browse's message")
			.contains("state", "group");
	}

	/**
	 * Every field a request body may carry is described, so that the API fuzzing sends
	 * it; every error answers problem+json, but a HEAD's, which has no body.
	 */
	@Test
	void apiDocs_describeEveryAcceptedField_andEveryErrorAsAProblem() {
		DocumentContext spec = JsonPath.parse(new HttpClientSupport(this.port).get("/v3/api-docs").body());
		assertThat(spec.read("$.components.schemas.QueueSettings.properties", Map.class).keySet()).containsExactly(
				"leaseSeconds", "delaySeconds", "retentionSeconds", "maxMessageBytes", "maxDeliveries",
				"deadLetterQueue", "tags", "fifo", "contentBasedDeduplication", "deduplicationScope",
				"throughputLimit");
		assertThat(spec.read("$.components.schemas.QueueSettings.properties.maxMessageBytes.minimum", Integer.class))
			.isEqualTo(Limits.MIN_MESSAGE_BYTES);
		assertThat(spec.read("$.components.schemas.QueueSettings.properties.tags.maxProperties", Integer.class))
			.isEqualTo(QueueTags.MAX_TAGS);
		assertThat(spec.read("$.components.schemas.QueueSettings.properties.retentionSeconds.minimum", Integer.class))
			.isEqualTo(Limits.MIN_RETENTION_SECONDS);
		assertThat(spec.read("$.components.schemas.Problem.properties", Map.class)).containsKeys("title", "status",
				"detail");

		Map<String, Map<String, Map<String, Object>>> paths = spec.read("$.paths");
		int errors = 0;
		for (Map.Entry<String, Map<String, Map<String, Object>>> path : paths.entrySet()) {
			for (Map.Entry<String, Map<String, Object>> operation : path.getValue().entrySet()) {
				Map<String, Map<String, Object>> responses = spec
					.read("$.paths['" + path.getKey() + "']." + operation.getKey() + ".responses");
				for (Map.Entry<String, Map<String, Object>> response : responses.entrySet()) {
					if (response.getKey().startsWith("4")) {
						String where = operation.getKey() + " " + path.getKey() + " " + response.getKey();
						if (operation.getKey().equals("head")) {
							assertThat(response.getValue()).as(where).doesNotContainKey("content");
						}
						else {
							assertThat(response.getValue().get("content")).as(where)
								.isEqualTo(Map.of("application/problem+json",
										Map.of("schema", Map.of("$ref", "#/components/schemas/Problem"))));
						}
						errors++;
					}
				}
			}
		}
		assertThat(errors).as("the controller's error responses").isGreaterThanOrEqualTo(32);
	}

	/**
	 * Each route of the hot-route table ({@link HotRoutes.Route}), which the fast path
	 * matches by hand, is a mapping of {@link MessageController} too, so that it is
	 * described and answers alike through Spring MVC.
	 */
	@Test
	void hotRouteTable_mappedByTheControllerAndDescribed() {
		DocumentContext spec = JsonPath.parse(new HttpClientSupport(this.port).get("/v3/api-docs").body());
		for (HotRoutes.Route route : HotRoutes.Route.values()) {
			assertThat(this.mappings.getHandlerMethods().entrySet()).as(route + " mapped by the controller")
				.anyMatch(mapping -> mapping.getValue().getBeanType() == MessageController.class
						&& mapping.getKey().getPathPatternsCondition().getPatternValues().contains(route.pattern())
						&& mapping.getKey()
							.getMethodsCondition()
							.getMethods()
							.contains(RequestMethod.valueOf(route.method())));
			assertThat(responses(spec, route.pattern(), route.method().toLowerCase())).as(route + " described")
				.isNotEmpty();
		}
	}

	private static Set<String> responses(DocumentContext spec, String path, String method) {
		Map<String, Object> responses = spec.read("$.paths['" + path + "']." + method + ".responses");
		return responses.keySet();
	}

}
