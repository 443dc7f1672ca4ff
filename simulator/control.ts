import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { badRequest } from "./errors";
import { FaultRuleSchema } from "./faults";
import { parseBody, type Req } from "./http";
import { SEED } from "./seed";
import { dnsName, type Sim, type SimSettings } from "./sim";

const TxtRecord = z.strictObject({ name: z.string().min(1), value: z.string() });
const TxtRemoval = z.strictObject({ name: z.string().min(1), value: z.string().optional() });
const Advance = z.strictObject({
  seconds: z
    .number()
    .nonnegative()
    .max(10 * 365 * 86_400),
});
const Password = z.strictObject({ password: z.string().min(1) });
const Faults = z.strictObject({ rules: z.array(FaultRuleSchema) });
const Settings = z.strictObject({
  rate: z.string().nullable().optional(),
  bulkDomains: z.string().optional(),
  latencyMs: z.number().optional(),
});

/** Validates and installs fault rules (400 on a bad rule or regular expression). */
export function setFaults(sim: Sim, body: unknown): void {
  const { rules } = parseBody(Faults, body, "faults");
  rules.forEach((rule, i) => {
    if (rule.path.startsWith("^")) {
      try {
        new RegExp(rule.path);
      } catch (err) {
        throw badRequest(
          "faults",
          `rules.${i}.path`,
          `Not a valid regular expression: ${(err as Error).message}`,
        );
      }
    }
  });
  sim.faults.set(rules);
}

/** Validates and applies settings (400 on a bad one); answers the settings now in force. */
export function setSettings(sim: Sim, body: unknown): SimSettings {
  sim.configure(parseBody(Settings, body, "settings") as Partial<SimSettings>);
  return sim.settings;
}

/** The control API under /__sim/ (no authentication): reset, DNS, clock, faults, settings, users, request log, state. */
export function registerControl(app: FastifyInstance, sim: Sim): void {
  app.post("/__sim/reset", async () => {
    sim.reset();
    return { message: "The seeded world is back", now: sim.clock.iso() };
  });

  app.get("/__sim/seed", async () => SEED);

  app.get("/__sim/state", async () => sim.world);

  app.post("/__sim/dns/txt", async (req: Req, reply) => {
    const body = parseBody(TxtRecord, req.body, "dns_txt");
    sim.publishTxt(body.name, body.value);
    return reply.code(201).send({ name: dnsName(body.name), value: body.value });
  });

  app.get("/__sim/dns/txt", async () => ({
    records: Object.entries(sim.world.dns_txt).flatMap(([name, values]) =>
      values.map((value) => ({ name, value })),
    ),
  }));

  app.delete("/__sim/dns/txt", async (req: Req, reply) => {
    const body = parseBody(TxtRemoval, req.body, "dns_txt");
    const name = dnsName(body.name);
    const values = (sim.world.dns_txt[name] ?? []).filter(
      (v) => body.value !== undefined && v !== body.value,
    );
    if (values.length > 0) sim.world.dns_txt[name] = values;
    else delete sim.world.dns_txt[name];
    sim.store.touch();
    return reply.code(204).send();
  });

  app.post("/__sim/advance", async (req: Req) => {
    const { seconds } = parseBody(Advance, req.body, "advance");
    return { now: sim.advance(seconds) };
  });

  app.get("/__sim/clock", async () => ({
    now: sim.clock.iso(),
    advancedSeconds: sim.clock.advancedMs / 1000,
    pace: sim.clock.pace,
  }));

  app.put("/__sim/faults", async (req: Req) => {
    setFaults(sim, req.body);
    return { rules: sim.faults.list() };
  });

  app.get("/__sim/faults", async () => ({ rules: sim.faults.list() }));

  app.put("/__sim/settings", async (req: Req) => setSettings(sim, req.body));

  app.get("/__sim/settings", async () => sim.settings);

  app.put("/__sim/users/:username", async (req: Req) => {
    const { username } = req.params as { username: string };
    sim.setPassword(username, parseBody(Password, req.body, "user").password);
    return { username };
  });

  app.get("/__sim/requests", async () => ({ requests: sim.requests() }));

  app.delete("/__sim/requests", async (_req, reply) => {
    sim.clearRequests();
    return reply.code(204).send();
  });
}
