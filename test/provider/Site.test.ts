import { describe, expect, it } from "vitest";
import { UNKNOWN } from "../../provider/core/inputs";
import { definition } from "../../provider/kinds/Site";
import { SEED } from "../../simulator";
import { checkFails, checkOk, createOk, deleteSays, diff, refusedAtCheck } from "../support/provider";
import { useSimulator } from "../support/simulator";

const { provider } = definition;

const fixture = useSimulator();
const client = fixture.client;
const { accounts: A, sites: S, installs: I } = SEED;
const GLOBEX = A.globex.id;

const deletes = () => fixture.sim.requests().filter((r) => r.method === "DELETE");

describe("Site lifecycle", () => {
  it("creates an empty site; read equals the outputs; a second diff shows no changes", async () => {
    const { id, outs } = await createOk(provider, { accountId: GLOBEX, name: "Docs" });
    expect(outs).toMatchObject({
      siteId: id,
      accountId: GLOBEX,
      name: "Docs",
      deletionProtection: true,
      sandbox: false,
    });
    expect((await client().sites.get(id)).name).toBe("Docs");
    const read = await provider.read!(id, outs);
    expect(read.props).toEqual(outs);
    expect(read.inputs).toEqual({ accountId: GLOBEX, name: "Docs", deletionProtection: true });
    expect(await diff(provider, id, outs, { accountId: GLOBEX, name: "Docs" })).toEqual({ changes: false });
  });

  it("renames in place; a change of account replaces (refused while protected)", async () => {
    const { id, outs } = await createOk(provider, { accountId: GLOBEX, name: "Docs" });
    const news = await checkOk(provider, { accountId: GLOBEX, name: "Handbook" }, outs);
    expect(await provider.diff!(id, outs, news)).toEqual({ changes: true });
    const updated = await provider.update!(id, outs, news);
    expect(updated.outs).toMatchObject({ siteId: id, name: "Handbook" });
    expect((await client().sites.get(id)).name).toBe("Handbook");

    await expect(
      diff(provider, id, updated.outs!, { accountId: A.initech.id, name: "Handbook" }),
    ).rejects.toThrow(
      /wpengine:Site cannot be replaced: changing accountId replaces it, which deletes site "Handbook" .* and every install in it for good, and deletionProtection is on\. Set deletionProtection: false .* run `pulumi up`/,
    );
    const open = { ...updated.outs!, deletionProtection: false };
    expect(
      await diff(provider, id, open, {
        accountId: A.initech.id,
        name: "Handbook",
        deletionProtection: false,
      }),
    ).toEqual({ changes: true, replaces: ["accountId"] });
  });

  it("sees a rename and a deletion made out of band", async () => {
    const { id, outs } = await createOk(provider, { accountId: GLOBEX, name: "Docs" });
    await client().sites.update(id, { name: "Renamed by hand" });
    const read = await provider.read!(id, outs);
    expect(read.inputs).toMatchObject({ name: "Renamed by hand" });
    expect(await diff(provider, id, read.props!, { accountId: GLOBEX, name: "Docs" })).toEqual({
      changes: true,
    });
    await client().sites.delete(id);
    expect(await provider.read!(id, outs)).toEqual({ id: "" });
  });
});

describe("Site deletion guard", () => {
  it("refuses to delete while deletionProtection is on, sending nothing, and says how to turn it off", async () => {
    fixture.sim.clearRequests();
    const olds = {
      siteId: S.acmeMarketing.id,
      accountId: A.acme.id,
      name: "Acme Marketing",
      deletionProtection: true,
      installs: [
        { id: I.acmeprod.id, name: "acmeprod" },
        { id: I.acmestg.id, name: "acmestg" },
      ],
    };
    await expect(provider.delete!(S.acmeMarketing.id, olds)).rejects.toThrow(
      /wpengine:Site delete failed: deletionProtection is on: deleting would destroy site "Acme Marketing" \(5e0.*\) and every install in it for good\. To delete it, set deletionProtection: false on the resource and run `pulumi up` .*then destroy or remove it/,
    );
    // State recorded before the guard existed (no deletionProtection) is protected too.
    const { deletionProtection: _dp, ...unguarded } = olds;
    await expect(provider.delete!(S.acmeMarketing.id, unguarded)).rejects.toThrow(/deletionProtection is on/);
    expect(deletes()).toEqual([]);
    expect((await client().sites.get(S.acmeMarketing.id)).name).toBe("Acme Marketing");
  });

  it("turning the guard off is an update that sends nothing; delete then refuses while the site holds an install, and deletes the empty site", async () => {
    const { id, outs } = await createOk(provider, { accountId: A.acme.id, name: "Doomed" });
    const made = await client().installs.create({
      name: "doomedprod",
      account_id: A.acme.id,
      site_id: id,
      environment: "production",
    });
    const news = await checkOk(
      provider,
      { accountId: A.acme.id, name: "Doomed", deletionProtection: false },
      outs,
    );
    expect(await provider.diff!(id, outs, news)).toEqual({ changes: true });
    fixture.sim.clearRequests();
    const updated = await provider.update!(id, outs, news);
    expect(fixture.sim.requests().filter((r) => r.method !== "GET")).toEqual([]);
    expect(updated.outs).toMatchObject({ deletionProtection: false });
    // An install no resource of this run deletes (another stack's, made by hand) keeps the site.
    await expect(provider.delete!(id, updated.outs!)).rejects.toThrow(
      `wpengine:Site delete failed: site "Doomed" (${id}) still holds installs doomedprod, and deleting the site would delete them too: delete them first (destroy their Install resources, or delete them in the User Portal), then run the destroy again`,
    );
    expect(fixture.sim.requests().filter((r) => r.method === "DELETE")).toEqual([]);
    expect((await client().installs.get(made.id)).name).toBe("doomedprod");
    await client().installs.delete(made.id);
    expect(await deleteSays(provider, id, updated.outs!)).toEqual([
      `wpengine:Site ${id}: deleted on the service (deletionProtection was off): site "Doomed" (${id})`,
    ]);
    await expect(client().sites.get(id)).rejects.toMatchObject({ status: 404 });
    await expect(provider.delete!(id, updated.outs!)).resolves.toBeUndefined();
  });
});

describe("Site adoption and check", () => {
  it("refuses a second site of the same name without adopt; adopts it with adopt: true", async () => {
    await expect(
      provider.create(await refusedAtCheck(provider, { accountId: A.acme.id, name: "Acme Blog" })),
    ).rejects.toThrow(
      `wpengine:Site create failed: site "Acme Blog" already exists in account ${A.acme.id} (id ${S.acmeBlog.id}); renamed a resource? give it \`aliases\` with its old name (docs/ownership.md); else set adopt: true to take it over`,
    );
    const { id, outs } = await createOk(provider, { accountId: A.acme.id, name: "Acme Blog", adopt: true });
    expect(id).toBe(S.acmeBlog.id);
    expect(outs).toMatchObject({ siteId: S.acmeBlog.id, transferable: true, adopt: true });
    expect(outs).not.toHaveProperty("installs");
  });

  it("names each invalid property; lets unknown values through", async () => {
    expect(
      await checkFails(provider, { accountId: "acme", name: "x".repeat(41), deletionProtection: "yes" }),
    ).toEqual([
      "accountId: accountId must be a UUID: an id (another resource's `.id`, or a lookup's), not a name",
      "name: name must be at most 40 characters",
      "deletionProtection: deletionProtection must be true or false",
    ]);
    expect(await checkFails(provider, { accountId: GLOBEX, name: "  " })).toEqual([
      "name: name must not be empty",
    ]);
    expect(await checkOk(provider, { accountId: UNKNOWN, name: UNKNOWN })).toMatchObject({
      accountId: UNKNOWN,
      deletionProtection: true,
    });
  });
});
