/**
 * The generated SDKs (`languages/python`, `languages/go`): what is committed is what the schema the
 * executable provider serves generates now (`npm run sdks` regenerates it), and every secret of the
 * schema (the provider's password, the certificate's private key, ...) is a secret in both SDKs: the
 * input wrapped as a secret before it is registered, and a secret output marked as one. Needs
 * `npm run build` (the schema is dist/provider/executable/schema.json) and Go (the generator is built
 * from pkg/v3's code generators, cached).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REPO, tempDir } from "../../tools/cli/pack";

const sdks: {
  generate(dir: string): Promise<string>;
  differences(fresh: string): string[];
  sdkSchema(): Schema;
} = require("../../tools/sdkgen/sdks.js");

interface Property {
  secret?: boolean;
}
interface Schema {
  provider: { inputProperties: Record<string, Property> };
  resources: Record<
    string,
    { inputProperties?: Record<string, Property>; properties?: Record<string, Property> }
  >;
}

const LANGUAGES = path.join(REPO, "languages");
const snake = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const camel = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);
const pascal = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const read = (...p: string[]) => fs.readFileSync(path.join(LANGUAGES, ...p), "utf8");
const secretKeys = (props: Record<string, Property> = {}) =>
  Object.entries(props)
    .filter(([, p]) => p.secret)
    .map(([k]) => k);

describe("the generated SDKs", { timeout: 15 * 60_000 }, () => {
  const fresh = tempDir("wpe-sdks-fresh-");
  afterAll(() => fs.rmSync(fresh, { recursive: true, force: true }));

  it("languages/ is what the provider's schema generates now (npm run sdks)", async () => {
    await sdks.generate(fresh);
    expect(sdks.differences(fresh), "run npm run sdks and commit languages/").toEqual([]);
  });

  // The secrets of the schema, as [file stem (Kind or "provider"), property, is it also an output]:
  const schema = sdks.sdkSchema();
  const secrets: [string, string, boolean][] = [
    ...secretKeys(schema.provider.inputProperties).map((k): [string, string, boolean] => [
      "provider",
      k,
      false,
    ]),
    ...Object.entries(schema.resources).flatMap(([token, r]) => {
      const kind = token.split(":").at(-1) ?? token;
      const outputs = new Set(secretKeys(r.properties));
      return secretKeys(r.inputProperties).map((k): [string, string, boolean] => [kind, k, outputs.has(k)]);
    }),
  ];

  it("the schema's secrets include the provider password and the certificate private key", () => {
    expect(secrets).toEqual(
      expect.arrayContaining([
        ["provider", "password", false],
        ["ThirdPartyCertificate", "privateKey", true],
      ]),
    );
  });

  it.each(secrets)("Python: %s.%s is sent as a secret", (kind, key, output) => {
    const file = read("python", "pulumi_wpengine", `${snake(camel(kind))}.py`);
    const arg = snake(key);
    expect(file).toContain(
      `__props__.__dict__["${key === arg ? key : arg}"] = None if ${arg} is None else pulumi.Output.secret(${arg})`,
    );
    if (output) expect(file).toMatch(new RegExp(`additional_secret_outputs=\\[[^\\]]*"${key}"`));
  });

  it.each(secrets)("Go: %s.%s is sent as a secret", (kind, key, output) => {
    const file = read("go", "wpengine", `${camel(kind)}.go`);
    expect(file).toMatch(new RegExp(`args\\.${pascal(key)} = pulumi\\.ToSecret\\(args\\.${pascal(key)}\\)`));
    if (output) expect(file).toMatch(new RegExp(`AdditionalSecretOutputs\\(\\[\\]string\\{[^}]*"${key}"`));
  });
});
