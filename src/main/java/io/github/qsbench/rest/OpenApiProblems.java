package io.github.qsbench.rest;

import io.swagger.v3.core.converter.ModelConverters;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.SpecVersion;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.Schema;
import org.springdoc.core.customizers.OpenApiCustomizer;

import org.springframework.stereotype.Component;

/**
 * The body of every error in the OpenAPI description, stated once: each 4xx and 5xx
 * response answers {@code application/problem+json} ({@link ProblemBody}), as Spring's
 * problem details and the error valve write it, except a {@code HEAD}'s, which has no
 * body. So the controller's annotations name only each error's status and cause.
 */
@Component
class OpenApiProblems implements OpenApiCustomizer {

	static final String PROBLEM = "application/problem+json";

	@Override
	public void customise(OpenAPI openApi) {
		ModelConverters.getInstance(openApi.getSpecVersion() == SpecVersion.V31)
			.read(ProblemBody.class)
			.forEach(openApi.getComponents()::addSchemas);
		Content problem = new Content().addMediaType(PROBLEM,
				new MediaType().schema(new Schema<>().$ref("#/components/schemas/Problem")));
		openApi.getPaths()
			.values()
			.forEach(path -> path.readOperationsMap()
				.forEach((method, operation) -> operation.getResponses().forEach((status, response) -> {
					if (status.startsWith("4") || status.startsWith("5")) {
						response.setContent((method == PathItem.HttpMethod.HEAD) ? null : problem);
					}
				})));
	}

}
