/**
 * The live page: the sampler that reads the meters once a second and the controller that
 * streams them.
 *
 * <p>
 * May import: core.strategy; io.micrometer, io.swagger, org.springframework, org.slf4j.
 */
package io.github.qsbench.live;
