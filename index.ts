/** pulumi-wpengine: Pulumi dynamic resources for WP Engine hosting. */
export {};
