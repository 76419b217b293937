package io.github.qsbench.http;

import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * How request bodies in JSON are read (REST batches, the SQS face): strictly, so that
 * what a client did not mean is refused rather than guessed (a duplicate member, anything
 * after the document), and within bounds set before a tree is built.
 */
public final class RequestJson {

	/** How deep a request document may nest: the API's are three levels deep. */
	public static final int MAX_DEPTH = 8;

	private RequestJson() {
	}

	/** A mapper for request bodies whose strings may be {@code maxStringLength} long. */
	public static JsonMapper mapper(int maxStringLength) {
		StreamReadConstraints constraints = StreamReadConstraints.builder()
			.maxNestingDepth(MAX_DEPTH)
			.maxStringLength(Math.max(maxStringLength, StreamReadConstraints.DEFAULT_MAX_STRING_LEN))
			.build();
		JsonFactory factory = JsonFactory.builder()
			.streamReadConstraints(constraints)
			.enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
			.build();
		return JsonMapper.builder(factory).enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build();
	}

}
