package io.github.qsbench.application.queues;

import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;

import io.github.qsbench.application.InvalidRequestException;

/**
 * A queue's tags, as SQS has them: up to {@value #MAX_TAGS} key/value pairs, keys
 * case-sensitive, 1 to {@value #MAX_KEY} characters, values 0 to {@value #MAX_VALUE},
 * both of Unicode letters and digits, white space and {@code _ . : / = + - @}; no key
 * starts with {@code aws:}, which AWS reserves. Kept with the queue's settings
 * ({@link ExplicitQueues}), so every instance on one store sees the same tags, and gone
 * with the queue.
 */
public final class QueueTags {

	/** Tags a queue may carry. */
	public static final int MAX_TAGS = 50;

	/** The longest key, in characters. */
	public static final int MAX_KEY = 128;

	/** The longest value, in characters. */
	public static final int MAX_VALUE = 256;

	/** The title of every refusal of tags, which a face may tell apart by it. */
	public static final String INVALID = "Invalid tags";

	private static final String RESERVED_PREFIX = "aws:";

	/** SQS's (and AWS's) characters of tags: {@code [\p{L}\p{Z}\p{N}_.:/=+\-@]}. */
	private static final Pattern ALLOWED = Pattern.compile("[\\p{L}\\p{Z}\\p{N}_.:/=+\\-@]*");

	private QueueTags() {
	}

	/**
	 * {@code tags} as they are after {@code change}.
	 * @throws InvalidRequestException if they would be more than {@value #MAX_TAGS}
	 */
	static SortedMap<String, String> apply(SortedMap<String, String> tags, Change change) {
		if (change == null) {
			return tags;
		}
		SortedMap<String, String> changed = new TreeMap<>(tags);
		changed.keySet().removeAll(change.untag());
		changed.putAll(change.tag());
		if (changed.size() > MAX_TAGS) {
			throw tooMany(changed.size());
		}
		return Collections.unmodifiableSortedMap(changed);
	}

	/** The refusal of a change that leaves a queue with {@code count} tags. */
	public static InvalidRequestException tooMany(int count) {
		return new InvalidRequestException(INVALID,
				"A queue carries at most " + MAX_TAGS + " tags; this change would leave it " + count + ".");
	}

	/**
	 * A change of a queue's tags: keys to set to their value (added, or overwritten), and
	 * keys to remove (those it does not carry are ignored), never the same key in both.
	 */
	public record Change(SortedMap<String, String> tag, SortedSet<String> untag) {

		/**
		 * @throws InvalidRequestException for a key or value SQS refuses, a key both set
		 * and removed, or more than {@value #MAX_TAGS} tags set at once
		 */
		public Change {
			tag = Collections.unmodifiableSortedMap(new TreeMap<>(tag));
			untag = Collections.unmodifiableSortedSet(new TreeSet<>(untag));
			if (tag.size() > MAX_TAGS) {
				throw tooMany(tag.size());
			}
			for (Map.Entry<String, String> entry : tag.entrySet()) {
				checkKey(entry.getKey());
				if (entry.getValue() == null || !allowed(entry.getValue(), 0, MAX_VALUE)) {
					throw new InvalidRequestException(INVALID, "The value of tag '" + entry.getKey() + "' is 0 to "
							+ MAX_VALUE + " Unicode letters, digits, white space or _ . : / = + - @");
				}
				if (untag.contains(entry.getKey())) {
					throw new InvalidRequestException(INVALID,
							"Tag '" + entry.getKey() + "' cannot be both set and removed.");
				}
			}
			untag.forEach(QueueTags::checkKey);
		}

		/** Sets these tags. */
		public static Change tag(Map<String, String> tags) {
			return new Change(new TreeMap<>(tags), Collections.emptySortedSet());
		}

		/** Removes these keys. */
		public static Change untag(Set<String> keys) {
			return new Change(Collections.emptySortedMap(), new TreeSet<>(keys));
		}

	}

	private static void checkKey(String key) {
		if (key == null || !allowed(key, 1, MAX_KEY) || key.regionMatches(true, 0, RESERVED_PREFIX, 0, 4)) {
			throw new InvalidRequestException(INVALID,
					"A tag key is 1 to " + MAX_KEY + " Unicode letters, digits, white space or _ . : / = + - @, "
							+ "and does not start with " + RESERVED_PREFIX + " (reserved); '" + key + "' is not one.");
		}
	}

	/** Whether {@code text} is {@code min} to {@code max} characters of SQS's set. */
	private static boolean allowed(String text, int min, int max) {
		int count = text.codePointCount(0, text.length());
		if (count < min || count > max) {
			return false;
		}
		return ALLOWED.matcher(text).matches();
	}

}
