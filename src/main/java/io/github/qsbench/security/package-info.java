/**
 * Who may do what: the SigV4 signature check of SQS requests ({@link SigV4Verifier}), the
 * queue policies that decide which accounts may call which actions ({@link QueuePolicy}),
 * and the REST API's bearer tokens. Plain checks with no web types: the faces hand them
 * what a request carries and answer their refusals in their own protocol.
 *
 * <p>
 * May import: nothing; tools.jackson, org.springframework, org.slf4j.
 */
package io.github.qsbench.security;
