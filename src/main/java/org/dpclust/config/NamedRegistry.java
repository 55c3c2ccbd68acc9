package org.dpclust.config;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Named implementations selected by a command-line option (batch algorithms, experiments). Names
 * are unique; an unknown name is an error that names the option and lists the known names.
 * Thread-safe.
 *
 * @param <T> what is registered
 */
public final class NamedRegistry<T> {
    private final String kind;
    private final String option;
    private final Function<T, String> nameOf;
    private final Map<String, T> byName = new LinkedHashMap<>();

    /**
     * @param kind what is registered, for messages (e.g. "algorithm")
     * @param option the option or argument that selects by name (e.g. "--algorithm")
     */
    public NamedRegistry(String kind, String option, Function<T, String> nameOf) {
        this.kind = kind;
        this.option = option;
        this.nameOf = nameOf;
    }

    /** Adds {@code item}; a second item with the same name is an error. */
    public synchronized void register(T item) {
        String name = nameOf.apply(item);
        if (byName.putIfAbsent(name, item) != null) {
            throw new IllegalArgumentException(kind + " '" + name + "' is already registered");
        }
    }

    /** The item called {@code name}, or an error naming the option and the known names. */
    public synchronized T get(String name) {
        T item = byName.get(name);
        if (item == null) {
            throw new IllegalArgumentException(
                    option
                            + ": unknown "
                            + kind
                            + " '"
                            + name
                            + "'; known: "
                            + String.join(", ", byName.keySet()));
        }
        return item;
    }

    /** Registered names, in registration order. */
    public synchronized List<String> names() {
        return new ArrayList<>(byName.keySet());
    }
}
