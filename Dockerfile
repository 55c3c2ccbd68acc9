# The dpclust job image: the official Flink image with the job jar in usrlib/.
# Build the jar first (mvn -B -DskipTests package), then: docker build -t dpclust:0.1.0 .
# The image carries no configuration and no secret: the Flink Kubernetes Operator writes config.yaml from the
# FlinkDeployment (deploy/kubernetes/), docker-compose.yml passes FLINK_PROPERTIES, and the HMAC secret
# comes from the environment (DPCLUST_SECRET) at run time.
FROM flink:2.2.1-scala_2.12-java17

# Application mode: the operator runs local:///opt/flink/usrlib/dpclust-job.jar; usrlib/ is on the user class path.
COPY --chown=flink:flink target/dpclust-job.jar /opt/flink/usrlib/dpclust-job.jar

# The Prometheus reporter ships with the Flink 2.2 distribution as a plugin (plugins/metrics-prometheus/, not
# opt/), so it only needs enabling in config.yaml (metrics.reporter.prom.*). Fail the build if it is missing.
RUN ls /opt/flink/plugins/metrics-prometheus/flink-metrics-prometheus-2.2.1.jar

# metrics.reporter.prom.port in flink-conf/config.yaml and deploy/kubernetes/flinkdeployment.yaml
EXPOSE 9249
