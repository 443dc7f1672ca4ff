import type { FastifyInstance } from "fastify";

/**
 * `GET /v1/swagger`: the real service answers its own Swagger document; the simulator answers a
 * Swagger 2.0 skeleton of what it serves (every `/v1` path and method registered), so a client can see
 * which operations this simulator knows. It never ships the service's document.
 */
export function registerSwagger(app: FastifyInstance): void {
  const paths: Record<string, Record<string, { operationId: string }>> = {};
  app.addHook("onRoute", (route) => {
    if (!route.url.startsWith("/v1/")) return;
    // `:name` and `:name(regex)` parameters read as Swagger's `{name}`; `::` is a literal colon.
    const path = route.url
      .slice(3)
      .split("::")
      .map((part) => part.replace(/:(\w+)(\([^)]*\))?/g, "{$1}"))
      .join(":");
    for (const method of [route.method].flat()) {
      if (method === "HEAD") continue;
      paths[path] ??= {};
      paths[path][method.toLowerCase()] = { operationId: `${method} ${path}` };
    }
  });
  app.get("/v1/swagger", async () => ({
    swagger: "2.0",
    info: { title: "pulumi-wpengine simulator", version: "1" },
    basePath: "/v1",
    paths,
  }));
}
