package org.dpclust.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.function.Executable;

/** Asserts that building a settings record fails with one exact, option-naming message. */
final class SettingsAssertions {
    private SettingsAssertions() {}

    /** {@code build} throws a {@link ConfigException} whose message is {@code message}. */
    static void refused(String message, Executable build) {
        ConfigException e = assertThrows(ConfigException.class, build);
        assertEquals(message, e.getMessage());
        assertEquals(message.substring(0, message.indexOf(": ")), e.option());
    }
}
