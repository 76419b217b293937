# The queue service: built with the project's Maven wrapper on a JDK, run on a JRE as a non-root
# user. The strategy is the Spring profile: docker run -e SPRING_PROFILES_ACTIVE=synchronized ...
# Built on JDK 17 (the oldest it supports), run on JDK 25, where requests run on virtual threads
# by default, which cost less CPU per message than platform threads (docs/client-curve.md);
# SPRING_THREADS_VIRTUAL_ENABLED=false gives Tomcat's platform threads instead.
FROM eclipse-temurin:17-jdk AS build
WORKDIR /build
COPY mvnw pom.xml ./
COPY .mvn .mvn
# Dependencies first, so that a change in src/ does not download them again.
RUN ./mvnw -B -q dependency:go-offline
COPY src src
RUN ./mvnw -B -q package -DskipTests \
 && cp target/queue-service-*.jar /build/queue-service.jar

FROM eclipse-temurin:25-jre
RUN groupadd --system queue && useradd --system --gid queue --no-create-home --shell /usr/sbin/nologin queue
WORKDIR /app
COPY --from=build /build/queue-service.jar /app/queue-service.jar
USER queue
EXPOSE 8080
# Every interface of the container (the service's own default is 127.0.0.1, this machine only):
# publish the port to 127.0.0.1, or turn on the checks of docs/security.md before serving others.
ENV SPRING_PROFILES_ACTIVE=concurrent-atomic \
    SERVER_ADDRESS=0.0.0.0 \
    JAVA_TOOL_OPTIONS="-XX:MaxRAMPercentage=75"
ENTRYPOINT ["java", "-jar", "/app/queue-service.jar"]
