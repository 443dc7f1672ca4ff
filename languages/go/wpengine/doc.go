// WP Engine hosting and application hosting (executable provider of pulumi-wpengine).
package wpengine
