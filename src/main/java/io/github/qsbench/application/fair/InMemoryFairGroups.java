package io.github.qsbench.application.fair;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Fair-queue groups in this instance's memory (see {@link FairGroups}): per queue, its
 * groups and each id's group, guarded by the queue's monitor.
 */
public final class InMemoryFairGroups implements FairGroups {

	private final Map<String, Groups> queues = new ConcurrentHashMap<>();

	@Override
	public boolean[] append(String queue, List<String> groups, long[] ids) {
		Groups queueGroups = this.queues.computeIfAbsent(queue, name -> new Groups());
		boolean[] released = new boolean[ids.length];
		synchronized (queueGroups) {
			for (int i = 0; i < ids.length; i++) {
				released[i] = (groups.get(i) == null) || queueGroups.append(groups.get(i), ids[i]);
			}
		}
		return released;
	}

	@Override
	public boolean remove(String queue, long id) {
		Groups groups = this.queues.get(queue);
		if (groups == null) {
			return false;
		}
		synchronized (groups) {
			Group released = groups.releasedOf.remove(id);
			if (released != null) {
				released.released--;
				groups.released--;
				groups.dropIfEmpty(released);
				return true;
			}
			Group held = groups.held.remove(id);
			if (held == null) {
				return false;
			}
			held.held.remove(id);
			if (held.held.isEmpty()) {
				groups.holding.remove(held);
			}
			groups.dropIfEmpty(held);
			return true;
		}
	}

	@Override
	public long[] release(String queue, int max) {
		Groups groups = this.queues.get(queue);
		if (groups == null) {
			return new long[0];
		}
		synchronized (groups) {
			long[] ids = new long[Math.min(max, groups.held.size())];
			for (int i = 0; i < ids.length; i++) {
				Group next = groups.holding.poll();
				long id = next.held.poll();
				groups.held.remove(id);
				next.released++;
				groups.released++;
				groups.releasedOf.put(id, next);
				if (!next.held.isEmpty()) {
					groups.holding.add(next);
				}
				ids[i] = id;
			}
			return ids;
		}
	}

	@Override
	public Counts counts(String queue) {
		Groups groups = this.queues.get(queue);
		if (groups == null) {
			return Counts.NONE;
		}
		synchronized (groups) {
			Set<String> noisy = new HashSet<>();
			long releasedNoisy = 0;
			for (Group group : groups.byName.values()) {
				if (!group.held.isEmpty() || FairGroups.noisy(group.released, groups.released)) {
					noisy.add(group.name);
					releasedNoisy += group.released;
				}
			}
			return new Counts(groups.byName.size(), noisy, groups.released, releasedNoisy, groups.held.size());
		}
	}

	@Override
	public void forget(String queue) {
		this.queues.remove(queue);
	}

	private static final class Groups {

		final Map<String, Group> byName = new HashMap<>();

		final Map<Long, Group> releasedOf = new HashMap<>();

		final Map<Long, Group> held = new HashMap<>();

		/** The groups holding messages back, in round-robin order. */
		final ArrayDeque<Group> holding = new ArrayDeque<>();

		long released;

		/** Message {@code id} in {@code group}: released if it is quiet, else held. */
		boolean append(String group, long id) {
			Group one = this.byName.computeIfAbsent(group, Group::new);
			if (FairGroups.noisy(one.released, this.released)) {
				one.held.add(id);
				this.held.put(id, one);
				if (one.held.size() == 1) {
					this.holding.add(one);
				}
				return false;
			}
			one.released++;
			this.released++;
			this.releasedOf.put(id, one);
			return true;
		}

		void dropIfEmpty(Group group) {
			if (group.released == 0 && group.held.isEmpty()) {
				this.byName.remove(group.name);
			}
		}

	}

	private static final class Group {

		final String name;

		final ArrayDeque<Long> held = new ArrayDeque<>();

		long released;

		Group(String name) {
			this.name = name;
		}

	}

}
