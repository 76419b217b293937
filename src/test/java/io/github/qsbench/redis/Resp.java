package io.github.qsbench.redis;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * One Redis command on a connection of its own, in RESP2, so that the test servers are
 * driven, clustered and inspected without {@code redis-cli}: the bundled
 * {@code redis-server} comes without one.
 */
final class Resp {

	private static final int CONNECT_TIMEOUT_MILLIS = 1000;

	private static final int READ_TIMEOUT_MILLIS = 10_000;

	private Resp() {
	}

	/**
	 * Sends the command to the server on this port of {@link LocalRedis#HOST} and reads
	 * its reply.
	 * @return a simple or bulk string as a {@link String}, an integer as a {@link Long},
	 * an array as a {@link List} of replies, a nil as {@code null}, an error as an
	 * {@link ErrorReply}
	 * @throws UncheckedIOException when the server cannot be reached or closes the
	 * connection before it replies
	 */
	static Object call(int port, List<String> command) {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress(LocalRedis.HOST, port), CONNECT_TIMEOUT_MILLIS);
			socket.setSoTimeout(READ_TIMEOUT_MILLIS);
			OutputStream out = socket.getOutputStream();
			out.write(encode(command));
			out.flush();
			return read(new BufferedInputStream(socket.getInputStream()));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * A reply as {@code redis-cli} prints it when its output is not a terminal: a string
	 * or an error's message as it is, an integer's digits, nil as nothing, an array's
	 * elements one a line.
	 */
	static String text(Object reply) {
		if (reply == null) {
			return "";
		}
		if (reply instanceof List<?> elements) {
			return elements.stream().map(Resp::text).collect(Collectors.joining("\n"));
		}
		if (reply instanceof ErrorReply error) {
			return error.message();
		}
		return reply.toString();
	}

	private static byte[] encode(List<String> command) {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		out.writeBytes(("*" + command.size() + "\r\n").getBytes(StandardCharsets.US_ASCII));
		for (String argument : command) {
			byte[] bytes = argument.getBytes(StandardCharsets.UTF_8);
			out.writeBytes(("$" + bytes.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
			out.writeBytes(bytes);
			out.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
		}
		return out.toByteArray();
	}

	private static Object read(InputStream in) throws IOException {
		String line = readLine(in);
		String rest = line.substring(1);
		return switch (line.charAt(0)) {
			case '+' -> rest;
			case '-' -> new ErrorReply(rest);
			case ':' -> Long.parseLong(rest);
			case '$' -> readBulk(in, Integer.parseInt(rest));
			case '*' -> readArray(in, Integer.parseInt(rest));
			default -> throw new IOException("Not a RESP2 reply: " + line);
		};
	}

	private static String readBulk(InputStream in, int length) throws IOException {
		if (length < 0) {
			return null;
		}
		byte[] bulk = in.readNBytes(length);
		if (bulk.length < length || in.readNBytes(2).length < 2) {
			throw new EOFException("Connection closed within a bulk reply");
		}
		return new String(bulk, StandardCharsets.UTF_8);
	}

	private static List<Object> readArray(InputStream in, int size) throws IOException {
		if (size < 0) {
			return null;
		}
		List<Object> elements = new ArrayList<>(size);
		for (int i = 0; i < size; i++) {
			elements.add(read(in));
		}
		return elements;
	}

	private static String readLine(InputStream in) throws IOException {
		ByteArrayOutputStream line = new ByteArrayOutputStream();
		for (int b = in.read(); b != '\n'; b = in.read()) {
			if (b == -1) {
				throw new EOFException("Connection closed before a reply");
			}
			line.write(b);
		}
		String text = line.toString(StandardCharsets.UTF_8).stripTrailing();
		if (text.isEmpty()) {
			throw new IOException("Not a RESP2 reply: an empty line");
		}
		return text;
	}

	/**
	 * An error reply, such as {@code ERR unknown command ...} or
	 * {@code MOVED 3999 host:port}.
	 */
	record ErrorReply(String message) {

	}

}
