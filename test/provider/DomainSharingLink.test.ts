/**
 * `DomainSharingLink` against the simulator: asked for once and kept (reads and a second diff send no
 * POST), refused at check for a domain on a network that takes no link, forgotten on delete.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { UNKNOWN } from "../../provider/core/inputs";
import { definition } from "../../provider/kinds/DomainSharingLink";
import { SEED } from "../../simulator";
import { checkFails, checkOk, createOk, deleteSays, diff } from "../support/provider";
import { useSimulator } from "../support/simulator";

const { provider } = definition;

const fixture = useSimulator();
const ACMEPROD = SEED.installs.acmeprod.id;
const ACMEBLOG = SEED.installs.acmeblog.id;
const AN_DOMAIN = SEED.domains.acmeExample.id; // AN, on acmeprod
const LEGACY_DOMAIN = SEED.domains.blogAcmeExample.id; // LEGACY, on acmeblog

const linkPosts = () =>
  fixture.sim.requests().filter((r) => r.method === "POST" && r.path.endsWith("/sharing_link")).length;

describe("DomainSharingLink", () => {
  beforeEach(() => fixture.sim.clearRequests());

  it("asks for the link once and keeps it: read and diff send nothing more", async () => {
    const news = { installId: ACMEPROD, domainId: AN_DOMAIN };
    const { id, outs } = await createOk(provider, news);
    expect(outs).toMatchObject({ ...news, domainName: "acme.example", networkType: "AN" });
    expect(String(outs["url"])).toMatch(/^https:\/\/app\.goentri\.com\/share\/[0-9a-f]{32}$/);
    // The id is printed and stored in clear text: never the link's token.
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(String(outs["url"])).not.toContain(id);
    expect(linkPosts()).toBe(1);
    const read = (await provider.read!(id, outs)) as { props: Record<string, unknown> };
    expect(read.props["url"]).toBe(outs["url"]);
    expect((await diff(provider, id, outs, news)).changes).toBe(false);
    expect(linkPosts()).toBe(1);
    expect(provider.definition.secrets).toContain("url");
  });

  it("refuses at check a domain on the LEGACY network, naming domainId and the way on", async () => {
    const lines = await checkFails(provider, { installId: ACMEBLOG, domainId: LEGACY_DOMAIN });
    expect(lines.join("\n")).toMatch(/^domainId: domain blog\.acme\.example is on the LEGACY network/);
    expect(lines.join("\n")).toContain("Advanced Network (AN) or Global Edge Security (GES)");
    expect(linkPosts()).toBe(0);
  });

  it("refuses at check a domain that is not on the install, naming domainId", async () => {
    const lines = await checkFails(provider, { installId: ACMEPROD, domainId: LEGACY_DOMAIN });
    expect(lines).toEqual([
      `domainId: domainId ${LEGACY_DOMAIN} is no domain of install ${ACMEPROD}: give the id of one of its domains (a Domain's id on that install)`,
    ]);
  });

  it("reads as gone once its domain is deleted, and delete only forgets", async () => {
    const d = await fixture.client().domains.create(ACMEPROD, { name: "share.acme.example" });
    const { id, outs } = await createOk(provider, { installId: ACMEPROD, domainId: d.id });
    await fixture.client().domains.delete(ACMEPROD, d.id);
    // A preview does not refuse the existing link (the refresh finds it gone; an up --refresh makes a new one).
    const again = await provider.check!(outs, { installId: ACMEPROD, domainId: d.id });
    expect(again.failures ?? []).toEqual([]);
    expect(((await provider.read!(id, outs)) as { id: string }).id).toBe("");
    expect((await deleteSays(provider, id, outs)).join("\n")).toMatch(/forgotten only.*cannot revoke/);
  });

  it("passes check for an AN domain, and for a domain not made yet (unknown id)", async () => {
    await checkOk(provider, { installId: ACMEPROD, domainId: AN_DOMAIN });
    const pending = await provider.check!({}, { installId: ACMEPROD, domainId: UNKNOWN });
    expect(pending.failures ?? []).toEqual([]);
    expect(linkPosts()).toBe(0);
  });
});
