# syntax=docker/dockerfile:1
# Tideway's image: one jar, every role. The role is the first argument:
#   docker run tideway meta --zookeeper zk:2181 --store s3://bucket/prefix ...
#   docker run tideway compute --node-id ordinal ...   |   docker run -p 4566:4566 tideway playground
# Build: docker build -t tideway .

FROM maven:3.9-eclipse-temurin-17 AS build
WORKDIR /src
# dependencies first, so a source change does not download them again
COPY pom.xml ./
COPY common/pom.xml common/
COPY storage-engine/pom.xml storage-engine/
COPY barrier/pom.xml barrier/
COPY backfill/pom.xml backfill/
COPY protocol/pom.xml protocol/
COPY compute-node/pom.xml compute-node/
COPY meta-service/pom.xml meta-service/
COPY sql-parser/pom.xml sql-parser/
COPY frontend/pom.xml frontend/
COPY cli/pom.xml cli/
COPY integration-tests/pom.xml integration-tests/
RUN mvn -B -q -Pfast dependency:go-offline -pl cli -am || true
COPY . .
RUN mvn -B -q -Pfast -DskipTests package -pl cli -am

FROM eclipse-temurin:17-jre
RUN groupadd --system --gid 10001 tideway \
 && useradd --system --uid 10001 --gid tideway --home-dir /var/lib/tideway --create-home tideway
COPY --from=build /src/cli/target/tideway.jar /opt/tideway/tideway.jar
COPY docker/tideway /usr/local/bin/tideway
# The heap follows the container's memory limit; the rest stays for direct buffers, metaspace and
# the page cache. TIDEWAY_JAVA_OPTS adds to or overrides these.
ENV JAVA_TOOL_OPTIONS="-XX:MaxRAMPercentage=70 -XX:+ExitOnOutOfMemoryError" \
    TIDEWAY_HOME=/opt/tideway
USER 10001:10001
WORKDIR /var/lib/tideway
# 4566 PostgreSQL, 5688-5690 Pekko (compute, frontend, meta), 5691 meta HTTP and dashboard,
# 5692 compute /metrics and probes, 5693 frontend probes
EXPOSE 4566 5688 5689 5690 5691 5692 5693
# exec form, and the launcher execs java: the JVM is PID 1 and receives SIGTERM itself (graceful stop)
ENTRYPOINT ["/usr/local/bin/tideway"]
CMD ["--help"]
