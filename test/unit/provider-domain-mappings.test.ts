import { describe, expect, it } from "vitest";
import { mappingStatus } from "../../provider/core/appHosting";
import { checkInputs, named } from "../../provider/core/inputs";
import {
  definition,
  liveSet,
  mappingFailures as mappingFailuresRaw,
  normalizeMappings,
  replaceBody,
} from "../../provider/kinds/DomainMappings";
import { canonicalDomain } from "../../sdk";

const { provider } = definition;

/** What the user reads of each failure (check puts the property's name in front). */
const mappingFailures = (...a: Parameters<typeof mappingFailuresRaw>) => mappingFailuresRaw(...a).map(named);

const DomainMappingsInputsSchema = definition.inputs;

const ACCOUNT = "ac000000-0000-4000-8000-000000000001";
const m = (domain: string, extra: { primary?: boolean; destinationDomainMapping?: string | null } = {}) => ({
  domain,
  primary: extra.primary ?? false,
  destinationDomainMapping: extra.destinationDomainMapping ?? null,
});

describe("DomainMappings helpers", () => {
  it("canonicalises domains: lower case, no trailing dot", () => {
    expect(canonicalDomain(" WWW.Example.COM. ")).toBe("www.example.com");
  });

  it("normalises a set: sorted, lower case, defaults filled", () => {
    expect(
      normalizeMappings([
        { domain: "WWW.b.example" },
        { domain: "a.example", destinationDomainMapping: "WWW.B.example" },
      ]),
    ).toEqual([m("a.example", { destinationDomainMapping: "www.b.example" }), m("www.b.example")]);
  });

  it("accepts a valid set", () => {
    expect(
      mappingFailures([
        m("www.example.com", { primary: true }),
        m("example.com", { destinationDomainMapping: "www.example.com" }),
      ]),
    ).toEqual([]);
  });

  it("names a duplicate domain (case-insensitively, through the schema)", () => {
    const checked = checkInputs(DomainMappingsInputsSchema, {
      accountId: ACCOUNT,
      appId: "shop",
      environmentId: "prod",
      mappings: [{ domain: "a.example" }, { domain: "A.Example" }],
    });
    expect(checked.failures).toEqual([
      {
        property: "mappings[1].domain",
        reason:
          "domain a.example appears more than once (also mappings[0]); domains compare case-insensitively",
      },
    ]);
  });

  it("allows at most one primary", () => {
    expect(mappingFailures([m("a.example", { primary: true }), m("b.example", { primary: true })])).toEqual([
      { property: "mappings", reason: "at most one mapping may be primary; 2 are: a.example, b.example" },
    ]);
  });

  it("requires a redirect to point at a domain of the set, not itself, not another redirect", () => {
    const failures = mappingFailures([
      m("a.example", { destinationDomainMapping: "elsewhere.example" }),
      m("b.example", { destinationDomainMapping: "b.example" }),
      m("c.example", { destinationDomainMapping: "d.example" }),
      m("d.example", { destinationDomainMapping: "e.example" }),
      m("e.example"),
    ]);
    expect(failures).toEqual([
      {
        property: "mappings[0].destinationDomainMapping",
        reason: "elsewhere.example is not a domain of this set; a redirect must point at one",
      },
      { property: "mappings[1].destinationDomainMapping", reason: "b.example cannot redirect to itself" },
      {
        property: "mappings[2].destinationDomainMapping",
        reason: "d.example itself redirects to e.example; point c.example at the final domain",
      },
    ]);
  });

  it("refuses a redirect that is primary", () => {
    expect(
      mappingFailures([
        m("a.example", { primary: true, destinationDomainMapping: "b.example" }),
        m("b.example"),
      ]),
    ).toEqual([
      {
        property: "mappings[0].primary",
        reason: "a.example redirects to b.example and so cannot be the primary domain",
      },
    ]);
  });

  it("builds the :replace body of the declared set only, a null redirect left out", () => {
    const mappings = [
      m("a.example", { primary: true }),
      m("b.example", { destinationDomainMapping: "a.example" }),
    ];
    expect(replaceBody({ accountId: ACCOUNT, appId: "app", environmentId: "prod", mappings })).toEqual({
      domainMappings: [
        { domain: "a.example", primary: true },
        { domain: "b.example", primary: false, destinationDomainMapping: "a.example" },
      ],
    });
  });

  it("reads service records: DELETING left out, sorted, TXT record exposed", () => {
    const statuses = [
      {
        domain: "Z.example",
        primary: true,
        state: "ACTIVE",
        txtVerification: { name: "_v.z", value: "tok", verified: false },
      },
      { domain: "gone.example", state: "DELETING" },
      { domain: "a.example", state: "CREATING", destinationDomainMapping: "z.example" },
    ].map(mappingStatus);
    const live = liveSet(statuses);
    expect(live.map((s) => [s.domain, s.state])).toEqual([
      ["a.example", "CREATING"],
      ["z.example", "ACTIVE"],
    ]);
    expect(live[1]).toMatchObject({ txtRecordName: "_v.z", txtRecordValue: "tok", txtVerified: false });
    expect(normalizeMappings(live)).toEqual([
      m("a.example", { destinationDomainMapping: "z.example" }),
      m("z.example", { primary: true }),
    ]);
  });
});

describe("DomainMappings diff", () => {
  const olds = {
    accountId: ACCOUNT,
    appId: "shop",
    environmentId: "prod",
    mappings: [m("a.example", { primary: true }), m("b.example")],
  };
  const news = (mappings: unknown[]) =>
    DomainMappingsInputsSchema.parse({ accountId: ACCOUNT, appId: "shop", environmentId: "prod", mappings });

  it("shows no change for another order or casing of the same set", async () => {
    expect(
      await provider.diff!(
        "id",
        olds,
        news([{ domain: "B.example" }, { domain: "A.EXAMPLE", primary: true }]),
      ),
    ).toEqual({
      changes: false,
    });
  });

  it("updates the set in place", async () => {
    expect(await provider.diff!("id", olds, news([{ domain: "a.example", primary: true }]))).toEqual({
      changes: true,
    });
  });

  it("replaces, deleting first, when the environment changes", async () => {
    const moved = {
      ...news([{ domain: "a.example", primary: true }, { domain: "b.example" }]),
      environmentId: "staging",
    };
    expect(await provider.diff!("id", olds, moved)).toEqual({
      changes: true,
      replaces: ["environmentId"],
      deleteBeforeReplace: true,
    });
  });
});
