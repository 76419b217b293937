package io.github.qsbench.compare;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.stereotype.Component;

/**
 * In a comparison's child only ({@code qs.compare.parent-pid} set, by
 * {@link JarInstances}): stops this service when the service that started it is gone, so
 * that a parent killed without its shutdown leaves no child loading the machine. Absent
 * from every other service.
 */
@Component
@ConditionalOnProperty(ParentWatch.PROPERTY)
class ParentWatch {

	static final String PROPERTY = "qs.compare.parent-pid";

	private static final Logger log = LoggerFactory.getLogger(ParentWatch.class);

	ParentWatch(@Value("${" + PROPERTY + "}") long parentPid, ConfigurableApplicationContext context) {
		ProcessHandle.of(parentPid).ifPresentOrElse((parent) -> parent.onExit().thenRun(() -> {
			log.warn("the service that started this one for a comparison (pid {}) is gone: stopping", parentPid);
			System.exit(context.isActive() ? org.springframework.boot.SpringApplication.exit(context) : 0);
		}), () -> {
			throw new IllegalStateException("the comparison's parent (pid " + parentPid + ") is already gone");
		});
	}

}
