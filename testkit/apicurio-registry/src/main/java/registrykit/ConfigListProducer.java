package registrykit;

import io.apicurio.common.apps.config.DynamicConfigPropertyList;
import java.util.ArrayList;
import javax.enterprise.context.ApplicationScoped;
import javax.enterprise.inject.Produces;
import javax.inject.Singleton;

/**
 * Stands in for Apicurio's config-index extension, whose build-time module is not on Maven
 * Central: an empty list of the registry's runtime-changeable settings (the registry then runs
 * with its static configuration only). Nothing else of the registry is replaced.
 */
@ApplicationScoped
public class ConfigListProducer {
    @Produces
    @Singleton
    DynamicConfigPropertyList dynamicConfigPropertyList() {
        return new DynamicConfigPropertyList(new ArrayList<>());
    }
}
