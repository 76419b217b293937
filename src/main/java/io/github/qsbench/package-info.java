/**
 * The Spring Boot application: its main class only; every room below is found by
 * component scanning from here.
 *
 * <p>
 * May import: nothing; org.springframework.
 */
package io.github.qsbench;
