package org.dpclust.dashboard;

import java.util.List;
import java.util.Map;

/**
 * The HTML that needs no JavaScript: what {@code GET /} shows a browser without scripts or {@code
 * curl}, rendered on the server from a {@link DashboardState#snapshot}.
 *
 * <p>Contract: {@link #fill} puts {@link #fallback} in place of the page template's {@link
 * #PLACEHOLDER} comment (inside the element the script later redraws, so with JavaScript the live
 * view replaces it). {@link #fallback} lists per stream its latest {@value #LATEST} releases,
 * newest first: window start and end, algorithm, epsilon, spent of cap, and every centroid with its
 * released coordinates and weight, values printed exactly ({@link Double#toString}); a centroid of
 * weight 0 or below is marked {@code no mass}. With no release at all it says {@code no releases
 * yet}, and so does a stream with only budget events. Every value from a record is HTML-escaped.
 */
public final class DashboardPage {
    /** The template's marker that {@link #fill} replaces. */
    public static final String PLACEHOLDER = "<!--server-rendered-->";

    /** Where the template takes {@link #rejections}. */
    public static final String REJECTED_PLACEHOLDER = "<!--server-rendered-rejected-->";

    /** Releases listed per stream. */
    public static final int LATEST = 5;

    private DashboardPage() {}

    /**
     * The template with {@link #PLACEHOLDER} replaced by {@link #fallback} and {@link
     * #REJECTED_PLACEHOLDER} by {@link #rejections}.
     */
    public static String fill(String template, Map<String, Object> snapshot) {
        return replace(
                replace(template, PLACEHOLDER, fallback(snapshot)),
                REJECTED_PLACEHOLDER,
                rejections(snapshot));
    }

    private static String replace(String template, String placeholder, String html) {
        int at = template.indexOf(placeholder);
        if (at < 0) {
            throw new IllegalArgumentException("the page template has no " + placeholder);
        }
        return template.substring(0, at) + html + template.substring(at + placeholder.length());
    }

    /**
     * The rejected records per stream and reason, marked operator-side and not published; empty
     * when the dashboard does not follow the dead-letter topic.
     */
    @SuppressWarnings("unchecked")
    public static String rejections(Map<String, Object> snapshot) {
        Map<String, Object> rej = (Map<String, Object>) snapshot.get("rejected");
        if (rej == null || !Boolean.TRUE.equals(rej.get("followed"))) {
            return "";
        }
        StringBuilder h = new StringBuilder("<h2>Rejected records</h2>\n");
        h.append("<p class=\"meta operator-side\">Operator-side, never published: counted from")
                .append(" the dead-letter topic, ")
                .append(esc(rej.get("records")))
                .append(" records so far.</p>\n");
        List<Map<String, Object>> byStream = (List<Map<String, Object>>) rej.get("by_stream");
        if (byStream.isEmpty()) {
            return h.append("<p class=\"meta none\">none rejected so far</p>\n").toString();
        }
        h.append("<table class=\"rejected\"><tr><th>stream</th><th>reason</th>")
                .append("<th>records</th></tr>\n");
        for (Map<String, Object> st : byStream) {
            for (Map.Entry<String, Object> e :
                    ((Map<String, Object>) st.get("reasons")).entrySet()) {
                h.append("<tr><td>")
                        .append(esc(st.get("stream_id")))
                        .append("</td><td>")
                        .append(esc(e.getKey()))
                        .append("</td><td>")
                        .append(esc(e.getValue()))
                        .append("</td></tr>\n");
            }
        }
        return h.append("</table>\n").toString();
    }

    /** The server-rendered view of a {@link DashboardState#snapshot}. */
    @SuppressWarnings("unchecked")
    public static String fallback(Map<String, Object> snapshot) {
        StringBuilder h = new StringBuilder();
        List<Map<String, Object>> streams = (List<Map<String, Object>>) snapshot.get("streams");
        h.append("<div class=\"fallback\">\n<p class=\"meta\">Server-rendered (reload for newer")
                .append(" releases); with JavaScript the live view replaces this. ")
                .append(snapshot.get("records_read"))
                .append(" records read, ")
                .append(snapshot.get("undecodable"))
                .append(" undecodable.</p>\n");
        if (streams.isEmpty()) {
            h.append("<p class=\"meta none\">no releases yet: nothing read from the centroids or")
                    .append(" budget topic so far.</p>\n");
        }
        for (Map<String, Object> s : streams) {
            List<Map<String, Object>> rel = (List<Map<String, Object>>) s.get("releases");
            h.append("<div class=\"stream\"><h2>")
                    .append(esc(s.get("stream_id")))
                    .append("</h2>\n");
            if (rel.isEmpty()) {
                h.append("<p class=\"meta none\">no releases yet (")
                        .append(((List<?>) s.get("budget_events")).size())
                        .append(" budget events)</p></div>\n");
                continue;
            }
            h.append("<table class=\"releases\"><tr><th>window start</th><th>window end</th>")
                    .append("<th>algorithm</th><th>ε</th><th>spent of cap</th>")
                    .append("<th>centroids (weight)</th></tr>\n");
            for (int i = rel.size() - 1; i >= Math.max(0, rel.size() - LATEST); i--) {
                Map<String, Object> r = rel.get(i);
                h.append("<tr><td>")
                        .append(esc(r.get("window_start")))
                        .append("</td><td>")
                        .append(esc(r.get("window_end")))
                        .append("</td><td>")
                        .append(esc(r.get("algorithm")))
                        .append("</td><td>")
                        .append(esc(r.get("epsilon")))
                        .append("</td><td>")
                        .append(esc(r.get("spent")))
                        .append(" of ")
                        .append(esc(r.get("cap")))
                        .append("</td><td>");
                List<?> centroids = (List<?>) r.get("centroids");
                List<?> weights = (List<?>) r.get("weights");
                for (int j = 0; j < centroids.size(); j++) {
                    h.append(j == 0 ? "" : "<br>").append("(");
                    List<?> c = (List<?>) centroids.get(j);
                    for (int d = 0; d < c.size(); d++) {
                        h.append(d == 0 ? "" : ", ").append(esc(c.get(d)));
                    }
                    h.append(")");
                    if (weights != null && j < weights.size()) {
                        Object w = weights.get(j);
                        h.append(" (").append(esc(w)).append(")");
                        if (w instanceof Number n && n.doubleValue() <= 0) {
                            h.append(" no mass");
                        }
                    }
                }
                h.append("</td></tr>\n");
            }
            h.append("</table>\n<p class=\"meta\">")
                    .append(Math.min(LATEST, rel.size()))
                    .append(" latest of ")
                    .append(rel.size())
                    .append(" releases, newest first; \"no mass\": a centroid of weight 0 or less")
                    .append(" (no noisy mass in its window).</p></div>\n");
        }
        return h.append("</div>").toString();
    }

    /** {@code v}'s text ({@link Double#toString} for a double), HTML-escaped. */
    public static String esc(Object v) {
        String s = String.valueOf(v);
        StringBuilder out = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }
}
