package io.github.qsbench.core.shared;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/** Finds the fields that the core's lock-free classes change by compare-and-set. */
public final class VarHandles {

	private VarHandles() {
	}

	/**
	 * The handle of a field of the looking-up class, for a static initializer: a missing
	 * field is a build error, so it fails class initialization.
	 */
	public static VarHandle field(MethodHandles.Lookup lookup, String name, Class<?> type) {
		try {
			return lookup.findVarHandle(lookup.lookupClass(), name, type);
		}
		catch (ReflectiveOperationException ex) {
			throw new ExceptionInInitializerError(ex);
		}
	}

}
