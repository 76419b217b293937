package io.github.qsbench.security;

/**
 * Who signed a request, once its signature is verified.
 *
 * @param accessKeyId the key it was signed with
 * @param accountId the account that key acts as
 */
public record Caller(String accessKeyId, String accountId) {
}
