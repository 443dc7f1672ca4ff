import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { Swagger } from "../support/swagger";
import { call, useSimulator } from "./helpers";
import { type Block, CASES, type SwaggerCase } from "./swagger.cases";

// Read at collection time: a missing reference file fails the whole file instead of skipping it.
const swagger = new Swagger();
const ALL = Object.values(CASES).flat();

const BLOCKS: Record<Block, string> = {
  served: "operations the simulator served before issue 11",
  sites: "sites, installs, SSH keys, accounts, current user (the sites branch)",
  certs: "cache purge, certificates, domain status, limits, usage, status, offload file (the certs branch)",
};

function pathOf(c: SwaggerCase, params: Record<string, string>): string {
  const template = c.op.slice(c.op.indexOf(" ") + 1);
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${c.op} ${c.title}: no value for {${name}}`);
    return encodeURIComponent(value);
  });
  return `/v1${path}${c.query ? `?${c.query}` : ""}`;
}

describe("every answer validates against the Swagger", () => {
  const sim = useSimulator();

  for (const [block, title] of Object.entries(BLOCKS) as [Block, string][]) {
    describe(title, () => {
      for (const c of CASES[block]) {
        it(`${c.op} → ${c.status}: ${c.title}`, async () => {
          const prepared = (await c.prepare?.(sim())) ?? {};
          const params = { ...c.params, ...prepared.params };
          const body = prepared.body ?? c.body;
          const method = c.op.slice(0, c.op.indexOf(" "));
          const answer = await call(sim(), method, pathOf(c, params), body, { user: c.user });
          expect({ status: answer.status, body: answer.body }).toMatchObject({ status: c.status });

          const verdict = swagger.check(c.op, answer.status, answer.body, c.exception?.arrayOf);
          expect(verdict.documented, `${c.status} is not a documented answer of ${c.op}`).toBe(true);
          const allowed = c.exception?.allows ?? [];
          const unexpected = verdict.errors.filter(
            (e) => !allowed.some((a) => a.keyword === e.keyword && a.instancePath.test(e.instancePath)),
          );
          expect(unexpected, JSON.stringify(answer.body)).toEqual([]);
          // An exception that no longer applies must go, so the list stays true.
          if (c.exception?.allows) {
            expect(verdict.errors.length, `${c.exception.key} no longer applies`).toBeGreaterThan(0);
          }
          if (c.exception?.arrayOf) {
            expect(answer.body, `${c.exception.key} no longer applies`).toBeInstanceOf(Array);
            expect(swagger.check(c.op, answer.status, answer.body).errors).not.toEqual([]);
          }
        });
      }
    });
  }
});

describe("GET /v1/swagger", () => {
  const sim = useSimulator();

  it("lists, without credentials, the paths and methods the simulator serves, in the Swagger's notation", async () => {
    const r = await call(sim(), "GET", "/v1/swagger", undefined, { user: null });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ swagger: "2.0", basePath: "/v1" });
    const listed = Object.entries<Record<string, unknown>>(r.body.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`),
    );
    for (const c of CASES.served) expect(listed).toContain(c.op);
    // Application hosting too, its colon verbs kept literal.
    expect(listed).toContain("POST /accounts/{account}/apps/{app}/environments/{env}/domainMappings:replace");
    expect(listed.filter((op) => op.includes("/__sim"))).toEqual([]);
  });
});

describe("the case table", () => {
  it("has a success case and an error case for every operation of the Swagger, and nothing else", () => {
    expect(swagger.operations).toHaveLength(60);
    const success = new Set(ALL.filter((c) => c.status < 300).map((c) => c.op));
    const failure = new Set(ALL.filter((c) => c.status >= 400).map((c) => c.op));
    expect(swagger.operations.filter((op) => !success.has(op))).toEqual([]);
    expect(
      swagger.operations.filter((op) => !failure.has(op) && op !== "GET /status" && op !== "GET /swagger"),
    ).toEqual([]);
    expect(ALL.map((c) => c.op).filter((op) => !swagger.operations.includes(op))).toEqual([]);
  });

  it("covers 400, 401, 404, 409, 422 and 429 answers", () => {
    const statuses = new Set(ALL.map((c) => c.status));
    for (const s of [400, 401, 403, 404, 409, 422, 429]) expect(statuses).toContain(s);
  });

  it("lists every exception in docs/simulator.md", () => {
    const readme = readFileSync(resolve(__dirname, "../../docs/simulator.md"), "utf8");
    const keys = new Set(ALL.flatMap((c) => (c.exception ? [c.exception.key] : [])));
    for (const key of keys) expect(readme).toContain(`\`${key}\``);
  });
});
