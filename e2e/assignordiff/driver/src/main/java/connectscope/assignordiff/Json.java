package connectscope.assignordiff;

import java.util.List;
import java.util.Map;

/**
 * Writes JSON in the layout of connectscope's -o json: objects indented by
 * two spaces, lists on one line, strings escaped as Go's encoding/json does
 * without HTML escaping.
 */
final class Json {
    private Json() {
    }

    /** An object of id to an object with the given fields, at an indentation depth. */
    static <V> void object(StringBuilder b, int depth, Map<String, ? extends List<? extends V>> entries, String[] fields) {
        if (entries.isEmpty()) {
            b.append("{}");
            return;
        }
        b.append("{\n");
        boolean first = true;
        for (Map.Entry<String, ? extends List<? extends V>> e : entries.entrySet()) {
            if (!first) {
                b.append(",\n");
            }
            first = false;
            indent(b, depth + 1);
            string(b, e.getKey());
            b.append(": {\n");
            List<? extends V> values = e.getValue();
            for (int i = 0; i < fields.length; i++) {
                if (i > 0) {
                    b.append(",\n");
                }
                indent(b, depth + 2);
                b.append('"').append(fields[i]).append("\": ");
                value(b, values.get(i));
            }
            b.append('\n');
            indent(b, depth + 1);
            b.append('}');
        }
        b.append('\n');
        indent(b, depth);
        b.append('}');
    }

    private static void value(StringBuilder b, Object v) {
        if (v instanceof List) {
            b.append('[');
            boolean first = true;
            for (Object s : (List<?>) v) {
                if (!first) {
                    b.append(", ");
                }
                first = false;
                string(b, (String) s);
            }
            b.append(']');
        } else {
            b.append(v);
        }
    }

    private static void indent(StringBuilder b, int depth) {
        for (int i = 0; i < depth; i++) {
            b.append("  ");
        }
    }

    static void string(StringBuilder b, String s) {
        b.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            String escaped = switch (c) {
                case '"' -> "\\\"";
                case '\\' -> "\\\\";
                case '\n' -> "\\n";
                case '\r' -> "\\r";
                case '\t' -> "\\t";
                case '\b' -> "\\b";
                case '\f' -> "\\f";
                case '\u2028', '\u2029' -> String.format("\\u%04x", (int) c);
                default -> c < 0x20 ? String.format("\\u%04x", (int) c) : null;
            };
            if (escaped == null) {
                b.append(c);
            } else {
                b.append(escaped);
            }
        }
        b.append('"');
    }
}
