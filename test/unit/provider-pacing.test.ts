import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PACING_CLOCK, paced, resetPacing } from "../../provider/core/pacing";
import { definition as purgeProviderKind } from "../../provider/kinds/CachePurge";
import {
  certificateOutputs,
  definition as letsEncryptKind,
} from "../../provider/kinds/LetsEncryptCertificate";
import { WpEngineApiError } from "../../sdk";

const purgeProvider = purgeProviderKind.provider;
const letsEncrypt = letsEncryptKind.provider;

/** A fake clock: sleeping moves it forward at once. */
let now = 0;
const sleeps: number[] = [];
const real = { ...PACING_CLOCK };
beforeEach(() => {
  resetPacing();
  now = 1_000_000;
  sleeps.length = 0;
  PACING_CLOCK.now = () => now;
  PACING_CLOCK.sleep = async (ms) => {
    sleeps.push(ms);
    now += ms;
  };
});
afterEach(() => Object.assign(PACING_CLOCK, real));

const limited = (retryAfterMs?: number) =>
  new WpEngineApiError({ status: 429, method: "POST", path: "/x", errors: [], retryAfterMs });

describe("paced", () => {
  it("spaces runs on one key by the window, and not runs on other keys", async () => {
    await paced("k", 5_000, 60_000, "k", async () => 1);
    now += 1_000;
    const second = await paced("k", 5_000, 60_000, "k", async () => 2);
    expect(second).toEqual({ value: 2, waitedMs: 4_000 });
    await paced("other", 5_000, 60_000, "other", async () => 3);
    expect(sleeps).toEqual([4_000]);
  });

  it("never overlaps runs on one key, even when started together", async () => {
    const order: string[] = [];
    const run = (name: string) =>
      paced("k", 5_000, 60_000, "k", async () => {
        order.push(`${name}@${now}`);
        return name;
      });
    await Promise.all([run("a"), run("b"), run("c")]);
    expect(order).toEqual(["a@1000000", "b@1005000", "c@1010000"]);
  });

  it("waits a 429's Retry-After, or the whole window without one, then succeeds", async () => {
    const answers: unknown[] = [limited(7_000), limited(), "ok"];
    const result = await paced("k", 60_000, 300_000, "k", async () => {
      const a = answers.shift();
      if (a instanceof Error) throw a;
      return a;
    });
    expect(result).toEqual({ value: "ok", waitedMs: 67_000 });
    expect(sleeps).toEqual([7_000, 60_000]);
  });

  it("gives up with a timeout naming what it waited for, and never loops on a 429 without a window", async () => {
    await expect(
      paced("k", 60_000, 30_000, "the object cache", async () => {
        throw limited();
      }),
    ).rejects.toThrow(/timed out .* waiting for the object cache/);
    await expect(
      paced("p", 0, 30_000, "p", async () => {
        throw limited();
      }),
    ).rejects.toBeInstanceOf(WpEngineApiError);
  });

  it("passes other errors through at once", async () => {
    const boom = new WpEngineApiError({ status: 500, method: "POST", path: "/x", errors: [] });
    await expect(paced("k", 5_000, 60_000, "k", () => Promise.reject(boom))).rejects.toBe(boom);
    expect(sleeps).toEqual([]);
  });
});

describe("CachePurge and LetsEncryptCertificate diffs (local, no service)", () => {
  const install = "1e000000-0000-4000-8000-000000000001";
  const purge = { installId: install, type: "object", triggers: { a: 1 }, timeoutSeconds: 300 };

  it("CachePurge: triggers update in place, installId and type replace", async () => {
    expect(await purgeProvider.diff!("id", purge, { ...purge, triggers: { a: 2 } })).toEqual({
      changes: true,
    });
    expect(await purgeProvider.diff!("id", purge, { ...purge, type: "page" })).toEqual({
      changes: true,
      replaces: ["type"],
    });
    expect(await purgeProvider.diff!("id", purge, { ...purge })).toEqual({ changes: false });
  });

  const order = {
    installId: install,
    domainId: "d0000000-0000-4000-8000-000000000006",
    emailAddress: "a@b.example",
    givenName: "A",
    familyName: "B",
    regionCode: "US",
    status: "ENABLED",
  };

  it("LetsEncryptCertificate: an ended certificate found by a refresh orders again on the next up", async () => {
    expect(await letsEncrypt.diff!("id", order, { ...order, regionCode: "us" })).toEqual({ changes: false });
    expect(await letsEncrypt.diff!("id", { ...order, status: "EXPIRED" }, order)).toEqual({ changes: true });
    expect(await letsEncrypt.diff!("id", order, { ...order, phone: "1" })).toEqual({ changes: true });
  });

  it("certificate outputs are plain, with null for what the service left out", () => {
    expect(certificateOutputs({ id: 7, status: "SUBMITTED" })).toEqual({
      certificateId: "7",
      status: "SUBMITTED",
      commonName: null,
      domains: [],
      autoRenew: null,
      orderedTime: null,
      approvedTime: null,
      expiresTime: null,
      serialNumber: null,
    });
  });
});
