package io.github.qsbench;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/**
 * The in-memory HTTP queue service; the active Spring profile picks its thread-safety
 * strategy.
 */
@SpringBootApplication
@ConfigurationPropertiesScan
public class QueueServiceApplication {

	public static void main(String[] args) {
		SpringApplication.run(QueueServiceApplication.class, args);
	}

}
