/**
 * The types a TypeScript program gets from the packed package (issue 31, "types that catch mistakes"):
 * `tsc` refuses a value an enum input does not take, and the published declarations carry each
 * property's description, which an editor shows on hover.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PackedProgram, packedProgram, REPO, tempDir } from "../../tools/cli/pack";

const run = promisify(execFile);
const TSC = path.join(REPO, "node_modules", "typescript", "bin", "tsc");

describe("the packed package's types", { timeout: 10 * 60_000 }, () => {
  let packed: PackedProgram;
  const dir = tempDir("wpe-types-");
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  beforeAll(async () => {
    packed = await packedProgram();
    fs.symlinkSync(path.join(packed.dir, "node_modules"), path.join(dir, "node_modules"), "dir");
    fs.writeFileSync(
      path.join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          module: "commonjs",
          target: "es2022",
          moduleResolution: "node",
          esModuleInterop: true,
          types: [],
        },
        files: ["index.ts"],
      }),
    );
  }, 10 * 60_000);

  const tsc = async (program: string): Promise<string> => {
    fs.writeFileSync(path.join(dir, "index.ts"), program);
    return run(process.execPath, [TSC, "-p", dir], { cwd: dir }).then(
      () => "",
      (err: { stdout?: string }) => err.stdout ?? String(err),
    );
  };

  const user = (roles: string) => `import * as wpengine from "pulumi-wpengine";
new wpengine.AccountUser("pat", {
  accountId: "ac000000-0000-4000-8000-000000000001",
  email: "pat@example.com",
  firstName: "Pat",
  lastName: "Doe",
  roles: ${JSON.stringify(roles)},
});
`;

  it('tsc refuses roles: "admin" and takes roles: "full,billing"', async () => {
    expect(await tsc(user("full,billing"))).toBe("");
    const refused = await tsc(user("admin"));
    expect(refused).toMatch(
      /^index\.ts\(7,3\): error TS2322: Type '"admin"' is not assignable to type 'Input<"/,
    );
    for (const role of ["owner", "full", "full,billing", "partial", "partial,billing"])
      expect(refused).toContain(`"${role}"`);
  });

  it("the declarations of Domain carry secureAllUrls' description, for its argument and its output", () => {
    const dts = fs.readFileSync(
      path.join(packed.dir, "node_modules", "pulumi-wpengine", "dist", "provider", "kinds", "generated.d.ts"),
      "utf8",
    );
    const described = "/** Force HTTPS for all URLs of the domain. */";
    expect(dts).toContain(`${described}\n    secureAllUrls?: DomainIn["secureAllUrls"];`);
    expect(dts).toContain(`${described}\n    readonly secureAllUrls: DomainOut["secureAllUrls"];`);
  });
});
