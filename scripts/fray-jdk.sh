#!/usr/bin/env bash
# Lays out the JDK 25 that Fray's Maven plugin (fray-plugins-maven, goal prepare-fray) instruments
# with jlink, for the Fray tests (docs/testing.md). Run by the build (pom.xml, profile "fray").
#
#   scripts/fray-jdk.sh VIEW MAVEN_JAVA_HOME
#
# Fray runs its tests on an instrumented JDK 25, which the plugin links from the JDK it is given
# with `jlink --module-path=$JDK/jmods --add-modules=ALL-MODULE-PATH`. Temurin 24 and later ship
# no jmods/ (JEP 493: they link from their run-time image instead), so that command finds no module.
# VIEW is that JDK as the plugin needs it: its bin/java, and a bin/jlink that names the modules
# (all of the JDK's but jdk.jlink and jdk.jpackage, which a run-time image cannot link) where no
# jmods/ exists. A JDK that has jmods/ is passed through unchanged.
#
# The JDK 25 is the first of: $JDK25_HOME (the variable Fray's plugins read too), the JDK running
# Maven if it is 25, a JDK 25 under /usr/lib/jvm. None found: the build fails here, saying so;
# -Dfray.skip=true builds without the Fray tests.
set -euo pipefail

view=$1
maven_java_home=$2

is_25() {
	[[ -x "$1/bin/java" && -x "$1/bin/jlink" ]] && grep -q '^JAVA_VERSION="25' "$1/release" 2>/dev/null
}

jdk=
for candidate in "${JDK25_HOME:-}" "$maven_java_home" /usr/lib/jvm/*; do
	if [[ -n "$candidate" ]] && is_25 "$candidate"; then
		jdk=$(cd "$candidate" && pwd -P)
		break
	fi
done
if [[ -z "$jdk" ]]; then
	echo "fray-jdk: Fray's tests run on a JDK 25 and none was found (JDK25_HOME, the JDK running Maven," \
		"/usr/lib/jvm): set JDK25_HOME, or build with -Dfray.skip=true to leave them out" >&2
	exit 1
fi
if [[ -f "$view/jdk" && "$(cat "$view/jdk")" == "$jdk" ]]; then
	exit 0
fi

rm -rf "$view"
mkdir -p "$view/bin"
ln -s "$jdk/bin/java" "$view/bin/java"
if [[ -d "$jdk/jmods" ]]; then
	ln -s "$jdk/bin/jlink" "$view/bin/jlink"
	ln -s "$jdk/jmods" "$view/jmods"
else
	modules=$("$jdk/bin/java" --list-modules | sed 's/@.*//' | grep -v -x -e jdk.jlink -e jdk.jpackage | paste -sd, -)
	cat >"$view/bin/jlink" <<EOF
#!/usr/bin/env bash
# Written by scripts/fray-jdk.sh: links from $jdk's run-time image, which has no jmods/.
args=()
for arg in "\$@"; do
	case "\$arg" in
		--module-path=$view/jmods) ;;
		--add-modules=ALL-MODULE-PATH) args+=("--add-modules=$modules") ;;
		*) args+=("\$arg") ;;
	esac
done
exec "$jdk/bin/jlink" "\${args[@]}"
EOF
	chmod +x "$view/bin/jlink"
fi
echo "$jdk" >"$view/jdk"
echo "fray-jdk: Fray's JDK 25 is $jdk"
