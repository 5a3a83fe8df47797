package org.apache.kafka.common.utils;

/**
 * Lets connect-file built for Kafka before 4.4 run on a 4.4 worker, where
 * this class moved to org.apache.kafka.common.utils.internals. Maven Central
 * has no connect-file 4.4.0, and the 4.3.1 connectors only call these two
 * methods. The realkafka harness compiles it into the connect-file plugin
 * directory; the plugin class loader finds it there because the worker's
 * own classpath no longer has the class.
 */
public final class AppInfoParser {
    private AppInfoParser() {
    }

    public static String getVersion() {
        return org.apache.kafka.common.utils.internals.AppInfoParser.getVersion();
    }

    public static String getCommitId() {
        return org.apache.kafka.common.utils.internals.AppInfoParser.getCommitId();
    }
}
