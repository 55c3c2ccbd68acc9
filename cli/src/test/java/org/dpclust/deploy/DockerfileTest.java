package org.dpclust.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The repository's Dockerfile passes {@link Dockerfile}'s syntax check and builds what the kit
 * expects: from the Flink image docker-compose runs, the jar the build produces into {@code
 * /opt/flink/usrlib/}, a build-time check for the Prometheus plugin of the project's Flink version.
 * The check itself rejects each kind of broken Dockerfile.
 */
class DockerfileTest {
    private final Dockerfile dockerfile = Dockerfile.parse(DeploymentFiles.DOCKERFILE);

    @Test
    void buildsTheJobImageFromTheFlinkImageComposeRuns() throws IOException {
        JsonNode compose = DeploymentFiles.yaml(DeploymentFiles.COMPOSE);
        String image = compose.at("/services/jobmanager/image").asText();
        assertEquals("flink:2.2.1-scala_2.12-java17", image);
        assertEquals(
                List.of(image), dockerfile.all("FROM").stream().map(i -> i.arguments()).toList());

        List<List<String>> copies = dockerfile.copies();
        assertEquals(
                1, copies.size(), "only the job jar: configuration and secret come at run time");
        assertEquals(
                List.of("target/dpclust-job.jar", "/opt/flink/usrlib/dpclust-job.jar"),
                copies.get(0));
        String product = Files.readString(Path.of("product.pom.xml"));
        assertTrue(
                product.contains(
                        "<outputFile>${project.build.directory}/dpclust-job.jar</outputFile>"),
                "the product unit (basedir: the repository root) produces target/dpclust-job.jar");
        String pom = Files.readString(Path.of("pom.xml"));
        String flinkVersion =
                pom.replaceAll("(?s).*<flink.version>([^<]+)</flink.version>.*", "$1");
        assertTrue(
                image.startsWith("flink:" + flinkVersion + "-"),
                "the image is Flink " + flinkVersion);
        assertTrue(
                dockerfile.all("RUN").stream()
                        .anyMatch(
                                r ->
                                        r.arguments()
                                                .contains(
                                                        "/opt/flink/plugins/metrics-prometheus/flink-metrics-prometheus-"
                                                                + flinkVersion
                                                                + ".jar")),
                "the build checks the Prometheus plugin is in plugins/");
    }

    @Test
    void theSyntaxCheckRejectsBrokenDockerfiles() {
        String ok =
                "ARG V=1\nFROM flink:x\nCOPY --chown=a:b s /d\nRUN [\"ls\", \"/\"]\nEXPOSE 9249\n";
        Dockerfile.parse(ok);
        for (String[] bad :
                new String[][] {
                    {"FORM flink:x\n", "line 1: unknown instruction FORM"},
                    {
                        "COPY a /b\nFROM flink:x\n",
                        "the first instruction (after ARGs) must be FROM"
                    },
                    {"FROM flink:x\nCOPY --own=a s /d\n", "line 2: COPY has no flag --own"},
                    {
                        "FROM flink:x\nCOPY onlyone\n",
                        "line 2: COPY needs a source and a destination"
                    },
                    {
                        "FROM flink:x\nRUN ls \\\n\n",
                        "line 2: the last instruction ends in a line continuation"
                    },
                    {
                        "FROM flink:x\nCMD [\"ls\", 1]\n",
                        "line 2: exec form must be a JSON array of strings"
                    },
                    {"FROM flink:x\nEXPOSE 70000\n", "line 2: port 70000 out of range"},
                    {"FROM flink:x\nUSER\n", "line 2: USER needs arguments"},
                }) {
            IllegalArgumentException e =
                    assertThrows(
                            IllegalArgumentException.class, () -> Dockerfile.parse(bad[0]), bad[0]);
            assertEquals(bad[1], e.getMessage());
        }
    }
}
