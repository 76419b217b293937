# shellcheck shell=bash
# Builds issue 48's Jetty probe (scripts/bench/jetty-hot-path/JettyHotPath.java, its Netty ways in
# NettyLoop.java) against the packaged service's classes, shared by the scripts that run it (source
# it, do not run it):
#
#   source "$ROOT/scripts/lib/jetty-probe.sh"
#   jetty_probe "$OUT/probe" "$SERVICE_JAR" "${SERVICE_JAVA:-java}" -Xmx512m
#   "${PROBE[@]}" "$port" 1 core &      # or servlet [virtual], or redis|redis-inline|redis-pass|redis-group|
#                                         # netty-shared|netty-apart:<redis port> (NettyLoop.java)
#
# jetty_probe DIR JAR JAVA [JVM options...]
#   Resolves Jetty and Netty's HTTP codec at the versions the project's Spring Boot parent manages
#   (the Maven wrapper, into DIR; not dependencies of the service), unpacks JAR's classes and
#   libraries (not Tomcat's or the servlet API Tomcat bundles) and compiles the probe with JAVA's
#   javac. Sets PROBE, the command that starts it with those JVM options.
jetty_probe() {
	local dir="$1" jar="$2" java="$3"
	shift 3
	local root boot lib classpath
	root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
	boot="$(sed -n '/<parent>/,/<\/parent>/s/.*<version>\(.*\)<\/version>.*/\1/p' "$root/pom.xml")"
	mkdir -p "$dir"
	cat >"$dir/pom.xml" <<-POM
		<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>
		  <parent><groupId>org.springframework.boot</groupId><artifactId>spring-boot-starter-parent</artifactId>
		    <version>$boot</version><relativePath/></parent>
		  <groupId>probe</groupId><artifactId>jetty-hot-path</artifactId><version>1</version>
		  <dependencies>
		    <dependency><groupId>org.eclipse.jetty</groupId><artifactId>jetty-server</artifactId></dependency>
		    <dependency><groupId>org.eclipse.jetty.ee11</groupId><artifactId>jetty-ee11-servlet</artifactId></dependency>
		    <dependency><groupId>io.netty</groupId><artifactId>netty-codec-http</artifactId></dependency>
		  </dependencies>
		</project>
	POM
	"$root/mvnw" -q -f "$dir/pom.xml" dependency:copy-dependencies -DoutputDirectory="$dir/jetty-lib"
	rm -rf "$dir/app" && mkdir -p "$dir/app" && (cd "$dir/app" && unzip -q "$jar" 'BOOT-INF/*')
	classpath="$dir/classes:$dir/app/BOOT-INF/classes"
	for lib in "$dir"/app/BOOT-INF/lib/*.jar; do
		[[ "$lib" =~ tomcat|jakarta.servlet ]] || classpath+=":$lib"
	done
	for lib in "$dir"/jetty-lib/*.jar; do classpath+=":$lib"; done
	"$(dirname "$(readlink -f "$(command -v "$java")")")/javac" -nowarn -cp "$classpath" -d "$dir/classes" \
		"$root"/scripts/bench/jetty-hot-path/*.java 2>&1 | grep -v -e '^Note:' -e 'warning' || true
	cp "$root"/scripts/bench/jetty-hot-path/*.lua "$dir/classes/"
	PROBE=("$java" "$@" -cp "$classpath" JettyHotPath)
}
