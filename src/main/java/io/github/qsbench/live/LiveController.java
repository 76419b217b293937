package io.github.qsbench.live;

import io.swagger.v3.oas.annotations.Hidden;

import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * The live page's data: {@code GET /live/events} is a stream of server-sent events, one
 * {@code snapshot} event a second (see {@link LiveSampler}). The page itself is
 * {@code static/index.html}, which Spring Boot serves at {@code /} to a request that
 * accepts {@code text/html}. Hidden from the OpenAPI description: it is no part of the
 * queue API, and a stream that never ends would only hang the clients and fuzzers
 * generated from it.
 */
@Hidden
@RestController
class LiveController {

	private final LiveSampler sampler;

	LiveController(LiveSampler sampler) {
		this.sampler = sampler;
	}

	@GetMapping(path = "/live/events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
	SseEmitter events() {
		return this.sampler.subscribe();
	}

}
