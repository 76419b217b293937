package io.github.qsbench.compare;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import io.swagger.v3.oas.annotations.Hidden;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.ErrorResponseException;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;

import io.github.qsbench.core.strategy.Strategy;

/**
 * The comparison the live page starts: {@code GET /compare/strategies} (what may be
 * chosen, the caps), {@code POST /compare} (start one: 202; 400 for a request past the
 * caps, 409 while another runs, 503 where the service has no jar to start strategies
 * from), {@code GET /compare} (the current or last one, its windows so far and its
 * ranking), {@code DELETE /compare} (cancel; 404 when none runs). Refusals are problem
 * details. Hidden from the OpenAPI description: no part of the queue API, and a client
 * generated from it should not start JVMs.
 */
@Hidden
@RestController
class CompareController {

	private final Comparisons comparisons;

	CompareController(Comparisons comparisons) {
		this.comparisons = comparisons;
	}

	@GetMapping(path = "/compare/strategies", produces = MediaType.APPLICATION_JSON_VALUE)
	Map<String, Object> choices() {
		List<Map<String, Object>> strategies = Arrays.stream(Strategy.values())
			.map((s) -> Map.<String, Object>of("profile", s.profile(), "available",
					!s.profile().equals(ComparisonRequest.REDIS)))
			.toList();
		List<Map<String, Object>> workloads = Arrays.stream(Workload.values())
			.map((w) -> Map.<String, Object>of("id", w.id(), "connections", w.connections(), "queues", w.queues(),
					"description", w.description()))
			.toList();
		Map<String, Object> caps = Map.of("minStrategies", ComparisonRequest.MIN_STRATEGIES, "maxStrategies",
				ComparisonRequest.MAX_STRATEGIES, "minRounds", ComparisonRequest.MIN_ROUNDS, "maxRounds",
				ComparisonRequest.MAX_ROUNDS, "minWindowSeconds", ComparisonRequest.MIN_WINDOW_SECONDS,
				"maxWindowSeconds", ComparisonRequest.MAX_WINDOW_SECONDS, "maxLoadSeconds",
				ComparisonRequest.MAX_LOAD_SECONDS, "maxConnections", ComparisonRequest.MAX_CONNECTIONS);
		Map<String, Object> defaults = Map.of("workload", ComparisonRequest.DEFAULT_WORKLOAD.id(), "rounds",
				ComparisonRequest.DEFAULT_ROUNDS, "windowSeconds", ComparisonRequest.DEFAULT_WINDOW_SECONDS);
		return Map.of("strategies", strategies, "workloads", workloads, "caps", caps, "defaults", defaults,
				"unavailable", this.comparisons.unavailable().orElse(""));
	}

	@PostMapping(path = "/compare", consumes = MediaType.APPLICATION_JSON_VALUE,
			produces = MediaType.APPLICATION_JSON_VALUE)
	ResponseEntity<Comparison.Snapshot> start(@RequestBody ComparisonRequest body) {
		ComparisonRequest request;
		try {
			request = body.validated();
		}
		catch (IllegalArgumentException ex) {
			throw problem(HttpStatus.BAD_REQUEST, "Comparison refused", ex.getMessage());
		}
		String base = ServletUriComponentsBuilder.fromCurrentContextPath().build().toUriString();
		String command = "curl -sS -X POST '" + base + "/compare' -H 'Content-Type: application/json' -d '"
				+ request.json() + "' && sleep " + (request.loadSeconds() + 30) + " && curl -sS '" + base + "/compare'";
		try {
			Comparison comparison = this.comparisons.start(request, command);
			return ResponseEntity.accepted()
				.location(ServletUriComponentsBuilder.fromCurrentRequest().build().toUri())
				.body(comparison.snapshot());
		}
		catch (IllegalStateException ex) {
			throw problem(HttpStatus.CONFLICT, "A comparison is running", ex.getMessage());
		}
		catch (UnsupportedOperationException ex) {
			throw problem(HttpStatus.SERVICE_UNAVAILABLE, "Comparison unavailable", ex.getMessage());
		}
	}

	@GetMapping(path = "/compare", produces = MediaType.APPLICATION_JSON_VALUE)
	Object current() {
		return this.comparisons.current()
			.<Object>map(Comparison::snapshot)
			.orElse(Map.of("state", "idle", "unavailable", this.comparisons.unavailable().orElse("")));
	}

	@DeleteMapping(path = "/compare", produces = MediaType.APPLICATION_JSON_VALUE)
	ResponseEntity<Comparison.Snapshot> cancel() {
		Comparison comparison = this.comparisons.cancel()
			.orElseThrow(() -> problem(HttpStatus.NOT_FOUND, "No comparison running", "No comparison runs."));
		return ResponseEntity.accepted().body(comparison.snapshot());
	}

	private static ErrorResponseException problem(HttpStatus status, String title, String detail) {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
		problem.setTitle(title);
		return new ErrorResponseException(status, problem, null);
	}

}
