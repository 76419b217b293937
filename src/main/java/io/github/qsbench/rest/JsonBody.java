package io.github.qsbench.rest;

import java.io.IOException;
import java.io.InputStream;
import java.util.function.Function;
import java.util.function.Supplier;

import io.github.qsbench.http.RequestJson;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * One JSON request body, read within a size and parsed strictly ({@link RequestJson}):
 * what {@link JsonRequests} and {@link QueueJsonRequests} share. Immutable.
 */
final class JsonBody {

	private final JsonMapper mapper;

	/**
	 * @param maxMessageBytes the longest string a body may hold
	 */
	JsonBody(int maxMessageBytes) {
		this.mapper = RequestJson.mapper(maxMessageBytes);
	}

	/**
	 * The request's body, refused with {@code tooLarge} if it is over {@code max} bytes:
	 * by its declared length before reading, else after reading one byte past the limit.
	 */
	static byte[] bytes(InputStream in, long declaredLength, int max, Supplier<ApiProblem> tooLarge)
			throws IOException {
		if (declaredLength > max) {
			throw tooLarge.get();
		}
		byte[] bytes = in.readNBytes(max + 1);
		if (bytes.length > max) {
			throw tooLarge.get();
		}
		return bytes;
	}

	JsonNode parse(byte[] bytes, Function<String, ApiProblem> malformed) {
		try {
			return this.mapper.readTree(bytes);
		}
		catch (JacksonException ex) {
			throw malformed.apply("The body is not one well-formed JSON document (UTF-8, no duplicate field, at most "
					+ RequestJson.MAX_DEPTH + " levels deep).");
		}
	}

	/**
	 * Whether {@code value} is a whole number that fits an {@code int} (1e3 and 5.0 too).
	 */
	static boolean isInt(JsonNode value) {
		return value.isNumber() && value.canConvertToExactIntegral() && value.canConvertToInt();
	}

}
