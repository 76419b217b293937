package io.github.qsbench.rest;

import io.swagger.v3.oas.annotations.media.Schema;

/**
 * The problem+json body as the OpenAPI description shows it. Spring writes
 * {@code ProblemDetail} itself; this record only documents it, because the schema derived
 * from {@code ProblemDetail} would declare {@code type} and {@code instance} absolute
 * URIs (RFC 9457 allows references, and {@code instance} is the request path) and nest
 * extension members that are really flattened.
 */
@Schema(name = "Problem", description = "RFC 9457 problem details")
record ProblemBody(@Schema(format = "uri-reference", example = "about:blank") String type,
		@Schema(example = "Invalid queue name") String title, @Schema(example = "400") int status,
		@Schema(description = "What was wrong, in the client's terms") String detail,
		@Schema(format = "uri-reference", description = "The request path") String instance,
		@Schema(description = "429 only: the cap reached, as named under qs.limits") String limit,
		@Schema(description = "429 only: the cap's value") Long max) {
}
