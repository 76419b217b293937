package io.github.qsbench.http;

import io.github.qsbench.core.MutableClock;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.annotation.Import;

/**
 * An {@link HttpTestBase} whose service runs on a {@link MutableClock} the test moves.
 */
@Import(MutableClockConfiguration.class)
public abstract class ClockedHttpTestBase extends HttpTestBase {

	@Autowired
	protected MutableClock clock;

}
