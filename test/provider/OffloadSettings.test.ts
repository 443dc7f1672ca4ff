import { describe, expect, it } from "vitest";
import { UNKNOWN } from "../../provider/core/inputs";
import { CreatedButFailedError } from "../../provider/core/lifecycle";
import { definition } from "../../provider/kinds/OffloadSettings";
import { DEFAULT_MAX_RETRIES } from "../../sdk/core/config";
import { SEED } from "../../simulator";
import { checkFails, checkOk, createOk, diff, refusedAtCheck, said } from "../support/provider";
import { useSimulator } from "../support/simulator";

const { provider } = definition;

const fixture = useSimulator();
const ACMEPROD = SEED.installs.acmeprod.id;
const ACMESTG = SEED.installs.acmestg.id;

const client = fixture.client;

const uploads = {
  path: "wp-content/uploads/",
  excludedPaths: ["wp-content/uploads/private/"],
  redirectType: "permanent",
};
const wanted = {
  installId: ACMESTG,
  bucket: "acme-uploads",
  bucketRegion: "us-east-1",
  pathSettings: [uploads],
};

/**
 * Runs `action` and moves the simulator's clock past the apply delay as soon as the update has been
 * accepted, so the wait ends on the next poll instead of after real seconds.
 */
async function applyingQuickly<T>(action: () => Promise<T>): Promise<T> {
  fixture.sim.clearRequests();
  const pending = action();
  // The action may also end without an accepted update (a refusal): then there is nothing to move on.
  await Promise.race([
    fixture.sim.served((r) => r.method === "PATCH" && r.status === 202),
    pending.catch(() => undefined),
  ]);
  fixture.sim.advance(5);
  return pending;
}

const create = (news: Record<string, unknown>) => applyingQuickly(() => createOk(provider, news));

describe("OffloadSettings lifecycle", () => {
  it("creates, waits until applied, reads back the same outputs, and a second diff shows no changes", async () => {
    const { id, outs } = await create(wanted);
    expect(id).toBe(ACMESTG);
    expect(outs).toEqual({
      installId: ACMESTG,
      cloud: "s3",
      bucket: "acme-uploads",
      bucketRegion: "us-east-1",
      pathSettings: [uploads],
      status: "applied",
      timeoutSeconds: 300,
    });
    const live = await client().offloadSettings.get(ACMESTG);
    expect(live).toMatchObject({
      status: "applied",
      settings: { bucket: "acme-uploads", bucket_region: "us-east-1" },
    });

    const read = await provider.read!(id, outs);
    expect(read.props).toEqual(outs);
    expect(read.inputs).toEqual({
      installId: ACMESTG,
      cloud: "s3",
      bucket: "acme-uploads",
      bucketRegion: "us-east-1",
      pathSettings: [uploads],
      timeoutSeconds: 300,
    });
    expect(await diff(provider, id, outs, wanted)).toEqual({ changes: false });
  });

  it("shows no change for reordered paths and excluded paths", async () => {
    const two = {
      ...wanted,
      pathSettings: [uploads, { path: "media/", excludedPaths: ["b/", "a/"], redirectType: "break" }],
    };
    const { id, outs } = await create(two);
    const reordered = {
      ...wanted,
      pathSettings: [{ path: "media/", excludedPaths: ["a/", "b/"], redirectType: "break" }, uploads],
    };
    expect(await diff(provider, id, outs, reordered)).toEqual({ changes: false });
  });

  it("updates in place, waits until applied, and returns the full outputs", async () => {
    const { id, outs } = await create(wanted);
    const news = await checkOk(
      provider,
      { ...wanted, bucket: "acme-media", bucketRegion: "eu-west-2" },
      outs,
    );
    expect(await provider.diff!(id, outs, news)).toEqual({ changes: true });
    const updated = await applyingQuickly(() => provider.update!(id, outs, news));
    expect(updated.outs).toEqual({
      ...outs,
      bucket: "acme-media",
      bucketRegion: "eu-west-2",
      status: "applied",
    });
    expect((await client().offloadSettings.get(ACMESTG)).settings?.bucket).toBe("acme-media");
  });

  it("replaces the resource when the install changes", async () => {
    const { id, outs } = await create(wanted);
    expect(await diff(provider, id, outs, { ...wanted, installId: ACMEPROD })).toEqual({
      changes: true,
      replaces: ["installId"],
    });
  });

  it("sees an out-of-band change in read and diff", async () => {
    const { id, outs } = await create(wanted);
    await client().offloadSettings.update(ACMESTG, { bucket: "changed-by-hand" });
    const read = await provider.read!(id, outs);
    expect(read.props).toMatchObject({ bucket: "changed-by-hand", status: "pending" });
    expect(await diff(provider, id, read.props!, wanted)).toEqual({ changes: true });
  });

  it("delete forgets: the settings stay on the install", async () => {
    const { id, outs } = await create(wanted);
    fixture.sim.clearRequests();
    await provider.delete!(id, outs);
    expect(fixture.sim.requests()).toEqual([]);
    expect((await client().offloadSettings.get(ACMESTG)).settings?.bucket).toBe("acme-uploads");
  });

  it("read reports gone (empty id) once the install is gone", async () => {
    const { id, outs } = await create(wanted);
    await client().installs.delete(ACMESTG);
    expect(await provider.read!(id, outs)).toEqual({ id: "" });
  });

  it("records the resource (created but failed) when the settings are not applied in time", async () => {
    // Someone else keeps re-sending settings, so the service keeps them pending past the 1 s deadline.
    const resend = () =>
      void client()
        .offloadSettings.update(ACMESTG, { cloud: "s3", bucket: "acme-uploads", bucket_region: "us-east-1" })
        .catch(() => {});
    resend();
    const timer = setInterval(resend, 100);
    try {
      const inputs = await checkOk(provider, { ...wanted, timeoutSeconds: 1, adopt: true });
      const err = await provider.create(inputs).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(CreatedButFailedError);
      const failed = err as CreatedButFailedError;
      expect(failed.id).toBe(ACMESTG);
      expect(failed.properties).toMatchObject({
        installId: ACMESTG,
        bucket: "acme-uploads",
        status: "pending",
      });
      expect(failed.message).toMatch(
        /^wpengine:OffloadSettings create failed: the service accepted the offload settings of install .* but did not apply them within timeoutSeconds \(1 s; last seen: status pending, bucket acme-uploads \(us-east-1\)\)/,
      );
    } finally {
      clearInterval(timer);
    }
  });
});

describe("OffloadSettings adoption", () => {
  it("refuses to overwrite settings made by hand without adopt, and says how to take them over", async () => {
    await client().offloadSettings.update(ACMESTG, {
      cloud: "s3",
      bucket: "hand-made",
      bucket_region: "us-west-2",
    });
    const refusal =
      "install 1e000000-0000-4000-8000-000000000002 already offloads files " +
      "to bucket hand-made (us-west-2), perhaps another stack's settings; renamed a resource? give it `aliases` with its old name (docs/ownership.md); else set adopt: true to take these settings " +
      "over (kept as they are when they are the declared ones, else replaced)";
    // Refused at preview already; create, sent past the check, says the same.
    const inputs = await refusedAtCheck(provider, wanted, refusal);
    await expect(provider.create(inputs)).rejects.toThrow(
      `wpengine:OffloadSettings create failed: ${refusal}`,
    );
    expect((await client().offloadSettings.get(ACMESTG)).settings?.bucket).toBe("hand-made");
  });

  it("takes them over with adopt: true", async () => {
    await client().offloadSettings.update(ACMESTG, {
      cloud: "s3",
      bucket: "hand-made",
      bucket_region: "us-west-2",
    });
    const { outs } = await create({ ...wanted, adopt: true });
    expect(outs).toMatchObject({ bucket: "acme-uploads", status: "applied", adopt: true });
  });

  it("refuses even the desired settings without adopt (another stack's), and takes them over with adopt, sending nothing", async () => {
    await create(wanted);
    fixture.sim.clearRequests();
    const refusal =
      /perhaps another stack's settings; renamed a resource\? give it `aliases` with its old name \(docs\/ownership\.md\); else set adopt: true/;
    await expect(provider.create(await refusedAtCheck(provider, wanted, refusal))).rejects.toThrow(refusal);
    const { result, lines } = await said(() => createOk(provider, { ...wanted, adopt: true }));
    expect(result.outs).toMatchObject({ bucket: "acme-uploads", status: "applied", pathSettings: [uploads] });
    expect(lines).toEqual([
      `wpengine:OffloadSettings ${ACMESTG}: adopted the existing offload settings of install ${ACMESTG} (id ${ACMESTG})`,
    ]);
    expect(fixture.sim.requests().filter((r) => r.method !== "GET")).toEqual([]);
  });
});

describe("OffloadSettings lost answers", () => {
  it("a create whose every try acted but lost its answer is sent again and takes over the settings it wrote", async () => {
    // The transport tries a PATCH of the whole settings 1 + DEFAULT_MAX_RETRIES times, then gives up.
    const tries = 1 + DEFAULT_MAX_RETRIES;
    const drop = {
      method: "PATCH",
      path: "*/offload_settings/*",
      after: true,
      drop: true,
      count: tries,
    } as const;
    fixture.sim.setFaults([drop]);
    fixture.sim.clearRequests();
    try {
      const { outs } = await createOk(provider, wanted);
      expect(outs).toMatchObject({ bucket: "acme-uploads", status: "applied" });
    } finally {
      fixture.sim.setFaults([]);
    }
    // The first send's tries, and none after: the second send found the settings they had written.
    expect(fixture.sim.requests().filter((r) => r.method === "PATCH")).toHaveLength(tries);
  });
});

describe("OffloadSettings errors from the service", () => {
  it("names the offending input", async () => {
    // check would refuse this bucket; calling create directly stands for a service stricter than check.
    const inputs = { ...(await checkOk(provider, wanted)), bucket: "Not_A_Bucket" };
    await expect(provider.create(inputs)).rejects.toThrow(
      /must be a valid S3 bucket name.*\(input ".*bucket"\)$/,
    );
  });
});

describe("OffloadSettings check", () => {
  const fails = async (news: Record<string, unknown>) => checkFails(provider, { ...wanted, ...news });

  it("fills the defaults", async () => {
    const inputs = await checkOk(provider, { installId: ACMESTG, bucket: "b-1", bucketRegion: "us-east-1" });
    expect(inputs).toEqual({
      installId: ACMESTG,
      cloud: "s3",
      bucket: "b-1",
      bucketRegion: "us-east-1",
      pathSettings: [],
      timeoutSeconds: 300,
    });
  });

  it("requires a UUID installId", async () => {
    expect(await fails({ installId: "x" })).toEqual([
      "installId: installId must be a UUID: an id (another resource's `.id`, or a lookup's), not a name",
    ]);
  });

  it("accepts only s3 as cloud", async () => {
    expect(await fails({ cloud: "gcs" })).toEqual([
      'cloud: cloud must be "s3" (the only storage the service offers)',
    ]);
  });

  it("requires a bucket name", async () => {
    expect(await fails({ bucket: undefined })).toEqual(["bucket: bucket is required and must be a string"]);
    expect((await fails({ bucket: "s3://acme-uploads" }))[0]).toMatch(
      /^bucket: bucket must be an S3 bucket name/,
    );
  });

  it("requires a region code", async () => {
    expect(await fails({ bucketRegion: "US East" })).toEqual([
      "bucketRegion: bucketRegion must be an AWS region code such as us-east-1",
    ]);
  });

  it("checks each path setting", async () => {
    expect(await fails({ pathSettings: [{ path: "", redirectType: "moved" }] })).toEqual([
      "pathSettings[0].path: path must not be empty",
      'pathSettings[0].redirectType: redirectType must be "break" or "permanent"',
    ]);
    expect(await fails({ pathSettings: [{ ...uploads, excludedPaths: [""] }] })).toEqual([
      "pathSettings[0].excludedPaths[0]: an excluded path must not be empty",
    ]);
  });

  it("refuses a path given twice", async () => {
    expect(await fails({ pathSettings: [uploads, { ...uploads, redirectType: "break" }] })).toEqual([
      'pathSettings[1].path: duplicate path "wp-content/uploads/": each path may appear once in pathSettings',
    ]);
  });

  it("bounds timeoutSeconds", async () => {
    expect((await fails({ timeoutSeconds: 0 }))[0]).toMatch(/^timeoutSeconds: /);
  });

  it("lets values unknown during preview through untouched", async () => {
    const news = { ...wanted, bucket: UNKNOWN, pathSettings: [{ ...uploads, path: UNKNOWN }] };
    const inputs = await checkOk(provider, news);
    expect(inputs["bucket"]).toBe(UNKNOWN);
    expect(inputs["pathSettings"]).toEqual(news.pathSettings);
  });
});
