package connectscope.assignordiff;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One Connect group as a scenario drives it: members in join order, each with
 * the assignment snapshot its WorkerCoordinator would keep, the leader's
 * assignor (its memory survives between rounds until a new leader), the clock
 * and the generation. Workers apply assignments as WorkerCoordinator's
 * onJoinComplete does: the decoded assignment, then the previous snapshot minus
 * the revoked pieces appended to it.
 */
final class Group {
    static final class Member {
        final String id;
        /** The ExtendedAssignment snapshot (null: holds nothing, as after a join). */
        Object snapshot;

        Member(String id) {
            this.id = id;
        }

        Collection<String> ownedConnectors() {
            return snapshot == null ? List.of() : Kafka.connectors(snapshot);
        }

        Collection<Object> ownedTasks() {
            return snapshot == null ? List.of() : Kafka.tasks(snapshot);
        }
    }

    static final class WorkerRound {
        List<String> assignedConnectors, assignedTasks, revokedConnectors, revokedTasks, connectors, tasks;
        long delayMs;
    }

    static final class Round {
        int generation;
        long timeMs;
        final Map<String, WorkerRound> workers = new TreeMap<>();
    }

    private final String protocol;
    private final boolean eager;
    private final int maxDelay;
    private final Kafka.Clock clock = new Kafka.Clock();
    private final List<Member> members = new ArrayList<>();
    private Map<String, Integer> connectors = new TreeMap<>();
    private long configOffset = -1;
    private int generation;
    private Object assignor;

    Group(String protocol, int maxDelay) {
        switch (protocol) {
            case "eager":
            case "compatible":
            case "sessioned":
                break;
            default:
                throw new IllegalArgumentException("unknown protocol " + protocol);
        }
        this.protocol = protocol;
        this.eager = protocol.equals("eager");
        this.maxDelay = maxDelay;
        newLeader();
    }

    List<Member> members() {
        return members;
    }

    void setConnectors(Map<String, Integer> conns) {
        connectors = conns;
        configOffset++;
    }

    void join(String id) {
        if (find(id) != null) {
            throw new IllegalArgumentException("worker " + id + " is already a member");
        }
        members.add(new Member(id));
    }

    void leave(String id) {
        Member m = find(id);
        if (m == null) {
            throw new IllegalArgumentException("worker " + id + " is not a member");
        }
        members.remove(m);
    }

    void sleep(long ms) {
        if (ms > 0) {
            clock.now += ms;
        }
    }

    /** Leadership moves: a brand-new assignor without memory. */
    void newLeader() {
        assignor = eager ? Kafka.newEagerAssignor() : Kafka.newCooperativeAssignor(clock, maxDelay);
    }

    private Member find(String id) {
        for (Member m : members) {
            if (m.id.equals(id)) {
                return m;
            }
        }
        return null;
    }

    Round rebalance(boolean generationMismatch) throws Exception {
        generation++;
        Round r = new Round();
        r.generation = generation;
        r.timeMs = clock.now;
        if (members.isEmpty()) {
            return r;
        }
        List<Object> metadata = new ArrayList<>(members.size());
        for (Member m : members) {
            ByteBuffer md = Kafka.memberMetadata(protocol, url(m.id), configOffset, eager ? null : m.snapshot);
            metadata.add(Kafka.joinGroupMember(m.id, md));
        }
        String leader = members.get(0).id;
        int lastCompleted = generationMismatch ? generation - 2 : generation - 1;
        Object coordinator = Kafka.coordinator(Kafka.configState(configOffset, connectors), generation, lastCompleted, leader, protocol);
        Map<String, ByteBuffer> out = Kafka.performAssignment(assignor, leader, protocol, metadata, coordinator);

        for (Member m : members) {
            ByteBuffer buf = out.get(m.id);
            if (buf == null) {
                throw new IllegalStateException("generation " + generation + ": no assignment for " + m.id);
            }
            Object a = Kafka.decodeAssignment(buf);
            WorkerRound w = new WorkerRound();
            w.assignedConnectors = sortedConnectors(Kafka.connectors(a));
            w.assignedTasks = sortedTasks(Kafka.tasks(a));
            w.revokedConnectors = sortedConnectors(Kafka.revokedConnectors(a));
            w.revokedTasks = sortedTasks(Kafka.revokedTasks(a));
            w.delayMs = Kafka.delay(a);
            // WorkerCoordinator.onJoinComplete: under a cooperative protocol the
            // previous snapshot minus the revoked pieces is appended.
            if (!eager && m.snapshot != null) {
                Collection<String> oldC = Kafka.connectors(m.snapshot);
                Collection<Object> oldT = Kafka.tasks(m.snapshot);
                oldC.removeAll(Kafka.revokedConnectors(a));
                oldT.removeAll(Kafka.revokedTasks(a));
                Kafka.connectors(a).addAll(oldC);
                Kafka.tasks(a).addAll(oldT);
            }
            m.snapshot = a;
            w.connectors = sortedConnectors(m.ownedConnectors());
            w.tasks = sortedTasks(m.ownedTasks());
            r.workers.put(m.id, w);
        }
        return r;
    }

    List<Round> settle(int maxRounds) throws Exception {
        List<Round> rounds = new ArrayList<>();
        for (int i = 0; i < maxRounds; i++) {
            Round r = rebalance(false);
            rounds.add(r);
            boolean revoked = false;
            long delay = 0;
            for (WorkerRound w : r.workers.values()) {
                revoked |= !w.revokedConnectors.isEmpty() || !w.revokedTasks.isEmpty();
                delay = Math.max(delay, w.delayMs);
            }
            if (revoked) {
                continue;
            }
            if (delay > 0 && i < maxRounds - 1) {
                sleep(delay);
                continue;
            }
            break;
        }
        return rounds;
    }

    private static String url(String id) {
        return "http://" + id + ":8083/";
    }

    static List<String> sortedConnectors(Collection<String> c) {
        List<String> out = new ArrayList<>(c);
        out.sort(Comparator.naturalOrder());
        return out;
    }

    static List<String> sortedTasks(Collection<Object> c) {
        List<Object[]> ids = new ArrayList<>(c.size());
        for (Object t : c) {
            ids.add(new Object[]{Kafka.taskConnector(t), Kafka.taskNumber(t)});
        }
        ids.sort(Comparator.comparing((Object[] k) -> (String) k[0]).thenComparingInt(k -> (Integer) k[1]));
        List<String> out = new ArrayList<>(ids.size());
        for (Object[] k : ids) {
            out.add(k[0] + "-" + k[1]);
        }
        return out;
    }
}
