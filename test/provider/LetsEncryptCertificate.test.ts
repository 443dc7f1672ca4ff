import { describe, expect, it } from "vitest";
import { definition } from "../../provider/kinds/LetsEncryptCertificate";
import { SEED } from "../../simulator";
import { selfSigned } from "../fixtures/self-signed";
import { checkFails, checkOk, createOk, deleteSays, diff, refusedAtCheck } from "../support/provider";
import { useSimulator } from "../support/simulator";

const { provider } = definition;

const fixture = useSimulator();
const { installs: I, domains: D } = SEED;
const holder = { emailAddress: "jane@acme.example", givenName: "Jane", familyName: "Doe", regionCode: "us" };
const target = { installId: I.acmeblog.id, domainId: D.blogAcmeExample.id, ...holder };
const orders = () =>
  fixture.sim.requests().filter((r) => r.method === "POST" && r.path.endsWith("/ssl_certificate"));

describe("LetsEncryptCertificate against the simulator", () => {
  it("orders on create with the status as outputs; refresh sees it ENABLED; a second diff shows no change", async () => {
    fixture.sim.clearRequests();
    const { id, outs } = await createOk(provider, target);
    expect(orders().map((r) => r.status)).toEqual([202]);
    expect(id).toBe(`${I.acmeblog.id}/${D.blogAcmeExample.id}`);
    expect(outs).toMatchObject({
      status: "SUBMITTED",
      commonName: "blog.acme.example",
      domains: ["blog.acme.example"],
      regionCode: "US",
      autoRenew: true,
    });
    fixture.sim.advance(5);
    const read = await provider.read!(id, outs);
    expect(read.props).toMatchObject({ status: "ENABLED", expiresTime: expect.stringMatching(/^\d{4}-/) });
    expect(await diff(provider, id, read.props!, target)).toEqual({ changes: false });
  });

  it("orders again when the holder changes, and when a refresh found the certificate expired", async () => {
    const { id, outs } = await createOk(provider, target);
    fixture.sim.clearRequests();
    const news = await checkOk(provider, { ...target, city: "Austin" }, outs);
    expect(await provider.diff!(id, outs, news)).toEqual({ changes: true });
    await provider.update!(id, outs, news);
    expect(orders()).toHaveLength(1);
    expect(
      await provider.diff!(id, { ...outs, status: "EXPIRED" }, await checkOk(provider, target, outs)),
    ).toEqual({
      changes: true,
    });
    const renewed = await provider.update!(
      id,
      { ...outs, status: "EXPIRED" },
      await checkOk(provider, target, outs),
    );
    expect(orders()).toHaveLength(2);
    expect(renewed.outs["status"]).toBe("SUBMITTED");
    expect(await diff(provider, id, outs, { ...target, domainId: D.acmeExample.id })).toMatchObject({
      replaces: ["domainId"],
    });
  });

  it("a new order whose answer is lost is not placed twice: the failure says the next up runs the step again", async () => {
    const { id, outs } = await createOk(provider, target);
    const news = await checkOk(provider, { ...target, city: "Austin" }, outs);
    fixture.sim.clearRequests();
    fixture.sim.setFaults([{ method: "POST", path: "*/ssl_certificate", after: true, drop: true, count: 1 }]);
    await expect(provider.update!(id, outs, news)).rejects.toThrow(
      "connection failed: other side closed. The connection was cut before an answer came, so whether the request took effect is " +
        "unknown: the next `pulumi up` runs this step again (a create first looks the object up by the " +
        "domain's Let's Encrypt certificate (a domain has one))",
    );
    expect(orders().map((r) => r.status)).toEqual([0]);
  });

  it("refuses to take over an existing order without adopt, and adopts it without ordering again", async () => {
    await createOk(provider, target);
    const inputs = await refusedAtCheck(provider, target);
    await expect(provider.create(inputs)).rejects.toThrow(
      /already has a Let's Encrypt certificate .*set adopt: true/,
    );
    fixture.sim.clearRequests();
    const adopted = await createOk(provider, { ...target, adopt: true });
    expect(orders()).toEqual([]);
    expect(adopted.outs["commonName"]).toBe("blog.acme.example");
  });

  it("reports the service's refusal for a domain that is not on the legacy network, naming it", async () => {
    const inputs = await checkOk(provider, {
      ...target,
      installId: I.acmeprod.id,
      domainId: D.acmeExample.id,
    });
    await expect(provider.create(inputs)).rejects.toThrow(
      /LetsEncryptCertificate create failed: .*400.*legacy-network/,
    );
  });

  it("is gone on refresh when the domain's certificate is now a third-party one", async () => {
    const { id, outs } = await createOk(provider, { ...target });
    const pair = selfSigned(["blog.acme.example"]);
    await fixture.client().certificates.importThirdParty(I.acmeblog.id, {
      certificate: Buffer.from(pair.certificate).toString("base64"),
      private_key: Buffer.from(pair.privateKey).toString("base64"),
    });
    expect(await provider.read!(id, outs)).toEqual({ id: "" });
  });

  it("check names the field", async () => {
    const failures = await checkFails(provider, {
      installId: I.acmeblog.id,
      domainId: "blog",
      regionCode: "USA",
    });
    expect(failures).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^domainId: .*UUID/),
        expect.stringMatching(/^emailAddress: /),
        expect.stringMatching(/^givenName: /),
        expect.stringMatching(/^familyName: /),
        "regionCode: regionCode must be a two-letter ISO 3166-1 alpha-2 country code such as US",
      ]),
    );
  });

  it("delete only forgets and says why", async () => {
    const { id, outs } = await createOk(provider, target);
    fixture.sim.clearRequests();
    expect(await deleteSays(provider, id, outs)).toEqual([
      `wpengine:LetsEncryptCertificate ${id}: forgotten only, nothing sent to the service: the API cannot cancel or remove a certificate; it stays on the domain and renews on the service's schedule`,
    ]);
    expect(fixture.sim.requests()).toEqual([]);
  });
});
