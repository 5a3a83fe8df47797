package connectscope.assignordiff;

import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Every contact with Kafka's classes, by reflection, so that one driver build
 * runs against connect-runtime 2.3 to 4.x: constructors and signatures that
 * changed between releases are picked at run time (the sessioned protocol and
 * the generation check did not exist in 2.3, for instance).
 *
 * The leader's WorkerCoordinator is the real class, allocated without running
 * its constructor (which wants a network client): the assignors only read its
 * config snapshot, its generation and its last completed generation, and hand
 * it the leader state. The ClusterConfigState is built the same way, holding
 * just the connectors and their task counts.
 */
final class Kafka {
    private static final String D = "org.apache.kafka.connect.runtime.distributed.";

    private Kafka() {
    }

    /** The simulated clock behind the assignor's Time. */
    static final class Clock {
        long now;
    }

    static String version() {
        try {
            return (String) cls("org.apache.kafka.common.utils.AppInfoParser").getMethod("getVersion").invoke(null);
        } catch (ReflectiveOperationException e) {
            return "unknown";
        }
    }

    static Object newCooperativeAssignor(Clock clock, int maxDelay) {
        try {
            Class<?> timeCls = cls("org.apache.kafka.common.utils.Time");
            Object time = Proxy.newProxyInstance(timeCls.getClassLoader(), new Class<?>[]{timeCls}, (p, m, a) -> {
                switch (m.getName()) {
                    case "milliseconds":
                    case "hiResClockMs":
                        return clock.now;
                    case "nanoseconds":
                        return clock.now * 1_000_000L;
                    case "hashCode":
                        return System.identityHashCode(p);
                    case "equals":
                        return p == a[0];
                    case "toString":
                        return "ScenarioTime(" + clock.now + ")";
                    default:
                        throw new UnsupportedOperationException("Time." + m.getName() + " is not simulated");
                }
            });
            Constructor<?> c = cls(D + "IncrementalCooperativeAssignor").getConstructor(cls("org.apache.kafka.common.utils.LogContext"), timeCls, int.class);
            return c.newInstance(logContext(), time, maxDelay);
        } catch (ReflectiveOperationException e) {
            throw wrap("creating IncrementalCooperativeAssignor", e);
        }
    }

    static Object newEagerAssignor() {
        try {
            return cls(D + "EagerAssignor").getConstructor(cls("org.apache.kafka.common.utils.LogContext")).newInstance(logContext());
        } catch (ReflectiveOperationException e) {
            throw wrap("creating EagerAssignor (this Kafka may not have the eager protocol)", e);
        }
    }

    private static Object logContext() throws ReflectiveOperationException {
        return cls("org.apache.kafka.common.utils.LogContext").getConstructor().newInstance();
    }

    /** A member's JoinGroup metadata for the protocol, as WorkerCoordinator.metadata() serializes it. */
    static ByteBuffer memberMetadata(String protocol, String url, long offset, Object snapshot) {
        try {
            if (protocol.equals("eager")) {
                Object ws = cls(D + "ConnectProtocol$WorkerState").getConstructor(String.class, long.class).newInstance(url, offset);
                return (ByteBuffer) cls(D + "ConnectProtocol").getMethod("serializeMetadata", ws.getClass()).invoke(null, ws);
            }
            Class<?> ewsCls = cls(D + "ExtendedWorkerState");
            Object ews = ewsCls.getConstructor(String.class, long.class, cls(D + "ExtendedAssignment")).newInstance(url, offset, snapshot);
            Class<?> icp = cls(D + "IncrementalCooperativeConnectProtocol");
            try {
                return (ByteBuffer) icp.getMethod("serializeMetadata", ewsCls, boolean.class).invoke(null, ews, protocol.equals("sessioned"));
            } catch (NoSuchMethodException e) {
                // 2.3.x: only protocol V1 (compatible) exists.
                return (ByteBuffer) icp.getMethod("serializeMetadata", ewsCls).invoke(null, ews);
            }
        } catch (ReflectiveOperationException e) {
            throw wrap("serializing member metadata", e);
        }
    }

    static Object joinGroupMember(String memberId, ByteBuffer metadata) {
        try {
            Class<?> c = cls("org.apache.kafka.common.message.JoinGroupResponseData$JoinGroupResponseMember");
            Object m = c.getConstructor().newInstance();
            c.getMethod("setMemberId", String.class).invoke(m, memberId);
            byte[] bytes = new byte[metadata.remaining()];
            metadata.duplicate().get(bytes);
            c.getMethod("setMetadata", byte[].class).invoke(m, (Object) bytes);
            return m;
        } catch (ReflectiveOperationException e) {
            throw wrap("building a JoinGroup member", e);
        }
    }

    /** The protocol name the group coordinator selects for the scenario's protocol. */
    private static String protocolName(String protocol) {
        if (protocol.equals("eager")) {
            return "default";
        }
        if (protocol.equals("sessioned") && !hasSessioned()) {
            return "compatible";
        }
        return protocol;
    }

    private static boolean hasSessioned() {
        try {
            cls(D + "IncrementalCooperativeConnectProtocol").getField("CONNECT_PROTOCOL_V2");
            return true;
        } catch (ReflectiveOperationException e) {
            return false;
        }
    }

    /** A ClusterConfigState at the offset with these connectors (name to task count), all started. */
    static Object configState(long offset, Map<String, Integer> connectors) {
        try {
            Class<?> c;
            try {
                c = cls("org.apache.kafka.connect.storage.ClusterConfigState"); // 3.0+
            } catch (ClassNotFoundException e) {
                c = cls(D + "ClusterConfigState");
            }
            Object s = allocate(c);
            for (Field f : c.getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers())) {
                    continue;
                }
                if (Map.class.isAssignableFrom(f.getType())) {
                    set(s, f, new HashMap<>());
                } else if (Set.class.isAssignableFrom(f.getType())) {
                    set(s, f, new HashSet<>());
                }
            }
            set(s, field(c, "offset"), offset);
            Object started = cls("org.apache.kafka.connect.runtime.TargetState").getField("STARTED").get(null);
            Constructor<?> taskId = cls("org.apache.kafka.connect.util.ConnectorTaskId").getConstructor(String.class, int.class);
            @SuppressWarnings("unchecked") Map<String, Integer> counts = (Map<String, Integer>) get(s, "connectorTaskCounts");
            @SuppressWarnings("unchecked") Map<String, Object> configs = (Map<String, Object>) get(s, "connectorConfigs");
            @SuppressWarnings("unchecked") Map<String, Object> states = (Map<String, Object>) get(s, "connectorTargetStates");
            @SuppressWarnings("unchecked") Map<Object, Object> taskConfigs = (Map<Object, Object>) get(s, "taskConfigs");
            for (Map.Entry<String, Integer> e : connectors.entrySet()) {
                counts.put(e.getKey(), e.getValue());
                configs.put(e.getKey(), new HashMap<String, String>());
                states.put(e.getKey(), started);
                for (int t = 0; t < e.getValue(); t++) {
                    taskConfigs.put(taskId.newInstance(e.getKey(), t), new HashMap<String, String>());
                }
            }
            return s;
        } catch (ReflectiveOperationException e) {
            throw wrap("building ClusterConfigState", e);
        }
    }

    /** The leader's WorkerCoordinator as the assignors see it during a round. */
    static Object coordinator(Object configState, int generation, int lastCompleted, String leaderId, String protocol) {
        try {
            Class<?> wc = cls(D + "WorkerCoordinator");
            Object c = allocate(wc);
            Class<?> ac = cls("org.apache.kafka.clients.consumer.internals.AbstractCoordinator");
            Object logger = cls("org.slf4j.LoggerFactory").getMethod("getLogger", Class.class).invoke(null, wc);
            for (Class<?> k = wc; k != null; k = k.getSuperclass()) {
                for (Field f : k.getDeclaredFields()) {
                    if (!Modifier.isStatic(f.getModifiers()) && f.getType().getName().equals("org.slf4j.Logger")) {
                        set(c, f, logger);
                    }
                }
            }
            Class<?> genCls = cls(ac.getName() + "$Generation");
            Constructor<?> gc = genCls.getDeclaredConstructor(int.class, String.class, String.class);
            gc.setAccessible(true);
            set(c, field(ac, "generation"), gc.newInstance(generation, leaderId, protocolName(protocol)));
            Field state = optionalField(ac, "state");
            if (state != null) {
                @SuppressWarnings({"unchecked", "rawtypes"}) Object stable = Enum.valueOf((Class) state.getType(), "STABLE");
                set(c, state, stable);
            }
            set(c, field(wc, "configSnapshot"), configState);
            Field last = optionalField(wc, "lastCompletedGenerationId");
            if (last != null) {
                set(c, last, lastCompleted);
            }
            Class<?> store = cls("org.apache.kafka.connect.storage.ConfigBackingStore");
            Object storage = Proxy.newProxyInstance(store.getClassLoader(), new Class<?>[]{store}, (p, m, a) -> {
                if (m.getName().equals("snapshot")) {
                    return configState;
                }
                throw new UnsupportedOperationException("ConfigBackingStore." + m.getName() + " is not simulated");
            });
            Field cs = optionalField(wc, "configStorage");
            if (cs != null) {
                set(c, cs, storage);
            }
            return c;
        } catch (ReflectiveOperationException e) {
            throw wrap("building WorkerCoordinator", e);
        }
    }

    @SuppressWarnings("unchecked")
    static Map<String, ByteBuffer> performAssignment(Object assignor, String leaderId, String protocol, List<Object> members, Object coordinator) {
        for (Method m : assignor.getClass().getMethods()) {
            if (!m.getName().equals("performAssignment") || m.getParameterCount() != 4) {
                continue;
            }
            Class<?>[] p = m.getParameterTypes();
            Object proto = protocolName(protocol);
            if (p[1].isEnum()) {
                try {
                    proto = p[1].getMethod("fromProtocol", String.class).invoke(null, proto);
                } catch (ReflectiveOperationException e) {
                    throw wrap("converting protocol " + proto, e);
                }
            }
            try {
                return (Map<String, ByteBuffer>) m.invoke(assignor, leaderId, proto, members, coordinator);
            } catch (InvocationTargetException e) {
                throw wrap("performAssignment", e.getCause());
            } catch (IllegalAccessException e) {
                throw wrap("performAssignment", e);
            }
        }
        throw new IllegalStateException(assignor.getClass().getName() + " has no performAssignment with 4 parameters");
    }

    /** Decodes an assignment as WorkerCoordinator.onJoinComplete does (every protocol version). */
    static Object decodeAssignment(ByteBuffer buf) {
        try {
            return cls(D + "IncrementalCooperativeConnectProtocol").getMethod("deserializeAssignment", ByteBuffer.class).invoke(null, buf.duplicate());
        } catch (ReflectiveOperationException e) {
            throw wrap("decoding an assignment", e);
        }
    }

    static Collection<String> connectors(Object assignment) {
        return call(assignment, "connectors");
    }

    static Collection<Object> tasks(Object assignment) {
        return call(assignment, "tasks");
    }

    static Collection<String> revokedConnectors(Object assignment) {
        return call(assignment, "revokedConnectors");
    }

    static Collection<Object> revokedTasks(Object assignment) {
        return call(assignment, "revokedTasks");
    }

    static long delay(Object assignment) {
        return Kafka.<Number>call(assignment, "delay").longValue();
    }

    static String taskConnector(Object taskId) {
        return call(taskId, "connector");
    }

    static int taskNumber(Object taskId) {
        return Kafka.<Integer>call(taskId, "task");
    }

    private static final Map<String, Method> METHODS = new HashMap<>();

    /** The answer of target's accessor name, as the type the caller knows it has. */
    @SuppressWarnings("unchecked")
    private static <T> T call(Object target, String name) {
        String key = target.getClass().getName() + "#" + name;
        try {
            Method m = METHODS.get(key);
            if (m == null) {
                m = target.getClass().getMethod(name);
                METHODS.put(key, m);
            }
            return (T) m.invoke(target);
        } catch (ReflectiveOperationException e) {
            throw wrap("calling " + key, e);
        }
    }

    private static final Map<String, Class<?>> CLASSES = new HashMap<>();

    private static Class<?> cls(String name) throws ClassNotFoundException {
        Class<?> c = CLASSES.get(name);
        if (c == null) {
            try {
                c = Class.forName(name);
            } catch (ClassNotFoundException e) {
                // Later 4.x releases moved client utilities (LogContext,
                // AppInfoParser) into an internals sub-package.
                int dot = name.lastIndexOf('.');
                c = Class.forName(name.substring(0, dot) + ".internals" + name.substring(dot));
            }
            CLASSES.put(name, c);
        }
        return c;
    }

    private static Object unsafe;
    private static Method allocateInstance;

    /** An instance whose constructor did not run (sun.misc.Unsafe, as serialization frameworks do). */
    private static Object allocate(Class<?> c) throws ReflectiveOperationException {
        if (unsafe == null) {
            Class<?> unsafeCls = Class.forName("sun.misc.Unsafe");
            Field f = unsafeCls.getDeclaredField("theUnsafe");
            f.setAccessible(true);
            unsafe = f.get(null);
            allocateInstance = unsafeCls.getMethod("allocateInstance", Class.class);
        }
        return allocateInstance.invoke(unsafe, c);
    }

    private static Field field(Class<?> c, String name) throws NoSuchFieldException {
        Field f = optionalField(c, name);
        if (f == null) {
            throw new NoSuchFieldException(c.getName() + "." + name);
        }
        return f;
    }

    private static final Map<String, Field> FIELDS = new HashMap<>();

    private static Field optionalField(Class<?> c, String name) {
        String key = c.getName() + "#" + name;
        if (FIELDS.containsKey(key)) {
            return FIELDS.get(key);
        }
        Field found = null;
        for (Class<?> k = c; k != null && found == null; k = k.getSuperclass()) {
            for (Field f : k.getDeclaredFields()) {
                if (f.getName().equals(name)) {
                    f.setAccessible(true);
                    found = f;
                    break;
                }
            }
        }
        FIELDS.put(key, found);
        return found;
    }

    private static void set(Object target, Field f, Object value) throws IllegalAccessException {
        f.setAccessible(true);
        f.set(target, value);
    }

    private static Object get(Object target, String name) throws ReflectiveOperationException {
        return field(target.getClass(), name).get(target);
    }

    private static RuntimeException wrap(String what, Throwable e) {
        return new IllegalStateException(what + " (Kafka " + version() + "): " + e, e);
    }
}
