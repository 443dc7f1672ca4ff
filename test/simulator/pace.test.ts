import { describe, expect, it } from "vitest";
import { WpEngineClient } from "../../sdk";
import { SEED, useSimulator } from "./helpers";

const install = SEED.installs.acmedev.id;

// Timing figures are in the bench (bench/run.js, "rate-limited service"); this pins the outcome.
describe("the sdk's one pace against a rate-limited service (20/s)", () => {
  const sim = useSimulator({ rate: "20/s" });

  it("completes 100 concurrent creates with no failure and no duplicate, the 429s shared", async () => {
    const client = new WpEngineClient({ username: "demo", password: "demo", apiUrl: sim().apiUrl });
    const names = Array.from({ length: 100 }, (_, i) => `paced${i}.acme.example`);
    const results = await Promise.allSettled(names.map((name) => client.domains.create(install, { name })));
    expect(results.filter((r) => r.status === "rejected")).toEqual([]);
    const listed = (await client.domains.list(install)).items.map((d) => d.name);
    expect(listed.filter((n) => n.startsWith("paced")).sort()).toEqual([...names].sort());
    const posts = sim()
      .requests()
      .filter((r) => r.method === "POST");
    expect(posts.filter((r) => r.status === 201)).toHaveLength(100);
    // Each caller retrying on its own clock gets about 190 429s here; held back together, a few per second.
    expect(posts.filter((r) => r.status === 429).length).toBeLessThan(80);
  });
});
