package io.github.qsbench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * Every room (package) of {@code src/main} imports only what its
 * {@code package-info.java} allows, in one line of its Javadoc:
 * {@code May import: <rooms>; <libraries>.} Rooms are named relative to
 * {@code io.github.qsbench} ({@code core}, {@code application}, ...), libraries by a
 * package prefix ({@code org.springframework}), {@code any library} allows every library.
 * The JDK is always allowed, and so is the room itself. The application layer's rooms are
 * layered: each may import only the rooms listed before it in {@link #APPLICATION_ROOMS},
 * so none reaches one above it.
 */
class ImportRulesTests {

	private static final Path MAIN = Path.of("src/main/java/io/github/qsbench");

	private static final String PROJECT = "io.github.qsbench.";

	private static final Pattern RULE = Pattern.compile("May import: ([^;]*); (.*?)\\.(?:\\s|$)");

	private static final Pattern IMPORT = Pattern.compile("(?m)^import (?:static )?([\\w.]+)(?:\\.\\*)?;");

	/**
	 * The application layer's rooms, lowest first: what they share, fair queues, queues
	 * as wholes (settings, dead letters), FIFO queues, the message path, and where one
	 * service keeps its state (the stores, which hand out the lower rooms' stores).
	 */
	private static final List<String> APPLICATION_ROOMS = List.of("application", "application.fair",
			"application.queues", "application.fifo", "application.messages", "application.stores");

	@Test
	void applicationRooms_importOnlyRoomsBelowThem() throws IOException {
		List<String> found;
		try (Stream<Path> rooms = Files.walk(MAIN.resolve("application"))) {
			found = rooms.filter(Files::isDirectory)
				.map(room -> MAIN.relativize(room).toString().replace('/', '.'))
				.toList();
		}
		assertThat(found).as("every room of the application layer has its place in the order")
			.containsExactlyInAnyOrderElementsOf(APPLICATION_ROOMS);
		for (int i = 0; i < APPLICATION_ROOMS.size(); i++) {
			String room = APPLICATION_ROOMS.get(i);
			Matcher rule = rule(MAIN.resolve(room.replace('.', '/')).resolve("package-info.java"));
			List<String> below = APPLICATION_ROOMS.subList(0, i);
			assertThat(words(rule.group(1)).stream().filter(APPLICATION_ROOMS::contains).toList())
				.as(room + " may import only the application rooms below it")
				.isSubsetOf(below);
		}
	}

	@Test
	void everyRoom_importsOnlyWhatItsPackageInfoAllows() throws IOException {
		List<String> broken = new ArrayList<>();
		try (Stream<Path> rooms = Files.walk(MAIN)) {
			for (Path room : rooms.filter(Files::isDirectory).toList()) {
				if (!hasJava(room)) {
					continue;
				}
				Matcher rule = rule(room.resolve("package-info.java"));
				String name = MAIN.relativize(room).toString().replace('/', '.');
				List<String> allowedRooms = words(rule.group(1));
				List<String> libraries = words(rule.group(2));
				try (Stream<Path> files = Files.list(room)) {
					for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
						Matcher imports = IMPORT.matcher(Files.readString(file));
						while (imports.find()) {
							String imported = imports.group(1);
							if (!allowed(imported, name, allowedRooms, libraries)) {
								broken.add(MAIN.relativize(file) + " imports " + imported);
							}
						}
					}
				}
			}
		}
		assertThat(broken).as("imports their room's package-info does not allow").isEmpty();
	}

	/** The {@code May import:} line of a room's {@code package-info.java}, found. */
	private static Matcher rule(Path info) throws IOException {
		assertThat(info).as("every room says what it may import").exists();
		Matcher rule = RULE.matcher(Files.readString(info).replaceAll("\\s*\\n\\s*\\*/?\\s*", " "));
		assertThat(rule.find()).as(info + " has a 'May import: rooms; libraries.' line").isTrue();
		return rule;
	}

	/**
	 * The frameworks are leaves: in {@code src/main} only the catalogue
	 * ({@code core.strategy}, which builds every strategy) imports {@code core.thesis} or
	 * {@code core.lanes}, and neither imports the other; what both need is in
	 * {@code core.shared}.
	 */
	@Test
	void frameworks_areLeaves_onlyTheCatalogueImportsThem() throws IOException {
		List<String> broken = new ArrayList<>();
		try (Stream<Path> files = Files.walk(MAIN)) {
			for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
				String room = MAIN.relativize(file.getParent()).toString().replace('/', '.');
				Matcher imports = IMPORT.matcher(Files.readString(file));
				while (imports.find()) {
					String imported = imports.group(1);
					for (String framework : List.of("core.thesis", "core.lanes")) {
						if (imported.startsWith(PROJECT + framework + ".") && !room.equals(framework)
								&& !room.equals("core.strategy")) {
							broken.add(MAIN.relativize(file) + " imports " + imported);
						}
					}
				}
			}
		}
		assertThat(broken).as("imports of a framework from outside the catalogue").isEmpty();
	}

	private static boolean allowed(String imported, String room, List<String> rooms, List<String> libraries) {
		if (imported.startsWith("java.") || imported.startsWith("javax.") || imported.startsWith("jdk.")) {
			return true;
		}
		if (imported.startsWith(PROJECT)) {
			String target = imported.substring(PROJECT.length());
			String targetRoom = target.substring(0, target.lastIndexOf('.'));
			while (!targetRoom.isEmpty() && Character.isUpperCase(targetRoom.charAt(targetRoom.lastIndexOf('.') + 1))) {
				targetRoom = targetRoom.contains(".") ? targetRoom.substring(0, targetRoom.lastIndexOf('.')) : "";
			}
			return targetRoom.equals(room) || rooms.contains(targetRoom);
		}
		return libraries.contains("any library") || libraries.stream().anyMatch(imported::startsWith);
	}

	private static List<String> words(String list) {
		return Arrays.stream(list.split(","))
			.map(String::strip)
			.filter(s -> !s.isEmpty() && !s.equals("nothing"))
			.toList();
	}

	private static boolean hasJava(Path room) throws IOException {
		try (Stream<Path> files = Files.list(room)) {
			return files.anyMatch(f -> f.toString().endsWith(".java") && !f.endsWith("package-info.java"));
		}
	}

}
