package connectscope.assignordiff;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Replays connectscope scenario files (format 1) through the real Connect
 * assignors of whatever connect-runtime jar is on the class path and prints
 * what {@code connectscope plan replay FILE -o json} prints.
 *
 * <pre>
 *   java -cp DRIVER:JARS connectscope.assignordiff.Driver FILE          # one scenario, to stdout
 *   java -cp DRIVER:JARS connectscope.assignordiff.Driver IN_DIR OUT_DIR # every *.json of IN_DIR
 * </pre>
 *
 * In batch mode each input gets OUT_DIR/NAME (the output) or OUT_DIR/NAME.error
 * (the Java stack trace), so one bad scenario does not stop the others.
 * Everything version-dependent lives in {@link Kafka}.
 */
public final class Driver {
    private static final ObjectMapper JSON = new ObjectMapper();

    private Driver() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 1) {
            System.out.print(replay(Files.readAllBytes(new File(args[0]).toPath())));
            return;
        }
        if (args.length != 2) {
            System.err.println("usage: Driver SCENARIO.json | Driver IN_DIR OUT_DIR");
            System.exit(2);
        }
        File in = new File(args[0]);
        File out = new File(args[1]);
        if (!out.isDirectory() && !out.mkdirs()) {
            throw new IOException("cannot create output directory " + out);
        }
        File[] files = in.listFiles((d, n) -> n.endsWith(".json"));
        if (files == null) {
            throw new IOException("cannot list input directory " + in);
        }
        Arrays.sort(files);
        int failed = 0;
        boolean timing = Boolean.getBoolean("driver.timing");
        for (File f : files) {
            long start = System.nanoTime();
            try {
                String text = replay(Files.readAllBytes(f.toPath()));
                Files.write(new File(out, f.getName()).toPath(), text.getBytes(StandardCharsets.UTF_8));
            } catch (Exception | LinkageError e) {
                failed++;
                StringWriter sw = new StringWriter();
                e.printStackTrace(new PrintWriter(sw));
                Files.write(new File(out, f.getName() + ".error").toPath(), sw.toString().getBytes(StandardCharsets.UTF_8));
            }
            if (timing) {
                System.err.printf("%s %d ms%n", f.getName(), (System.nanoTime() - start) / 1_000_000);
            }
        }
        // What actually ran, for the caller to check against what it meant to run.
        String ran = "kafka=" + Kafka.version() + "\njava=" + System.getProperty("java.specification.version") + "\n";
        Files.write(new File(out, ".driver").toPath(), ran.getBytes(StandardCharsets.UTF_8));
        System.err.printf("driver: Kafka %s, %d scenarios, %d failed%n", Kafka.version(), files.length, failed);
    }

    /** Runs one scenario and returns its -o json document, laid out as connectscope prints it. */
    static String replay(byte[] scenario) throws Exception {
        JsonNode root = JSON.readTree(scenario);
        if (root == null || root.path("scenario").asInt(0) != 1) {
            throw new IllegalArgumentException("not a format-1 scenario");
        }
        String protocol = root.path("protocol").asText("sessioned");
        int maxDelay = root.path("max_delay_ms").asInt(300000);
        Group group = new Group(protocol, maxDelay);

        List<String> rounds = new ArrayList<>();
        JsonNode steps = root.path("steps");
        for (int i = 0; i < steps.size(); i++) {
            JsonNode step = steps.get(i);
            String kind = step.fieldNames().next();
            JsonNode body = step.get(kind);
            switch (kind) {
                case "connectors": {
                    TreeMap<String, Integer> conns = new TreeMap<>();
                    for (Iterator<Map.Entry<String, JsonNode>> it = body.fields(); it.hasNext(); ) {
                        Map.Entry<String, JsonNode> e = it.next();
                        conns.put(e.getKey(), Math.max(0, e.getValue().asInt()));
                    }
                    group.setConnectors(conns);
                    break;
                }
                case "join":
                    for (JsonNode w : body) {
                        group.join(w.asText());
                    }
                    break;
                case "leave":
                    for (JsonNode w : body) {
                        group.leave(w.asText());
                    }
                    break;
                case "sleep_ms":
                    group.sleep(body.asLong());
                    break;
                case "new_leader":
                    group.newLeader();
                    break;
                case "rebalance":
                    rounds.add(roundJson(i, group.rebalance(body.path("generation_mismatch").asBoolean(false))));
                    break;
                case "settle": {
                    int max = body.path("max_rounds").asInt(0);
                    for (Group.Round r : group.settle(max <= 0 ? 20 : max)) {
                        rounds.add(roundJson(i, r));
                    }
                    break;
                }
                default:
                    throw new IllegalArgumentException("step " + i + ": unknown step " + kind);
            }
        }
        StringBuilder b = new StringBuilder(1 << 14);
        b.append("{\n  \"name\": ");
        Json.string(b, root.path("name").asText(""));
        b.append(",\n  \"rounds\": ");
        if (rounds.isEmpty()) {
            b.append("[]");
        } else {
            b.append("[\n");
            b.append(String.join(",\n", rounds));
            b.append("\n  ]");
        }
        b.append(",\n  \"final\": ");
        Map<String, List<List<String>>> fin = new TreeMap<>();
        for (Group.Member m : group.members()) {
            fin.put(m.id, List.of(Group.sortedConnectors(m.ownedConnectors()), Group.sortedTasks(m.ownedTasks())));
        }
        Json.object(b, 1, fin, new String[]{"connectors", "tasks"});
        b.append("\n}\n");
        return b.toString();
    }

    private static String roundJson(int step, Group.Round r) {
        StringBuilder b = new StringBuilder(4096);
        b.append("    {\n      \"step\": ").append(step)
                .append(",\n      \"generation\": ").append(r.generation)
                .append(",\n      \"time_ms\": ").append(r.timeMs)
                .append(",\n      \"workers\": ");
        Map<String, List<Object>> workers = new TreeMap<>();
        for (Map.Entry<String, Group.WorkerRound> e : r.workers.entrySet()) {
            Group.WorkerRound w = e.getValue();
            workers.put(e.getKey(), List.of(w.assignedConnectors, w.assignedTasks, w.revokedConnectors, w.revokedTasks,
                    w.delayMs, w.connectors, w.tasks));
        }
        Json.object(b, 3, workers, new String[]{"assigned_connectors", "assigned_tasks", "revoked_connectors",
                "revoked_tasks", "delay_ms", "connectors", "tasks"});
        b.append("\n    }");
        return b.toString();
    }
}
