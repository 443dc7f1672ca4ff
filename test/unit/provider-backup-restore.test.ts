import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changedActionInputs, shown } from "../../provider/core/actions";
import { resetClient } from "../../provider/core/client";
import { clearStackConfig, setStackConfig } from "../../provider/core/config";
import { BACKUP_POLL, UNKNOWN } from "../../provider/core/inputs";
import { CreatedButFailedError, contextOf, defineProvider } from "../../provider/core/lifecycle";
import { definition, RESTORE_INPUTS, restoreSummary } from "../../provider/kinds/BackupRestore";
import type { WpEngineClient } from "../../sdk";

const { provider } = definition;

const INSTALL = "1e000000-0000-4000-8000-000000000001";
const BACKUP = "b0000000-0000-4000-8000-000000000001";
const olds = {
  installId: INSTALL,
  backupId: BACKUP,
  notificationEmails: ["ops@example.com"],
  restoreDatabase: true,
  createCheckpoint: true,
  triggers: [1],
  wait: true,
  timeoutSeconds: 1,
  summary: "s",
  restoreCount: 1,
  lastRestoredAt: "2025-01-01T00:00:00.000Z",
  installStatus: "active",
};

const saved = { ...BACKUP_POLL };
beforeAll(() => Object.assign(BACKUP_POLL, { intervalMs: 10, maxIntervalMs: 50 }));
afterAll(() => Object.assign(BACKUP_POLL, saved));

describe("action helpers", () => {
  it("shows values for people, unknown ones as such", () => {
    expect(shown(true)).toBe("yes");
    expect(shown(["a@x.io", "b@x.io"])).toBe("a@x.io, b@x.io");
    expect(shown([])).toBe("(none)");
    expect(shown(UNKNOWN)).toBe("(known after apply)");
    expect(shown(["a@x.io", UNKNOWN])).toBe("(known after apply)");
  });

  it("finds the inputs that changed, ignoring address order and case", () => {
    const same = { ...olds, notificationEmails: ["OPS@example.com"] };
    expect(changedActionInputs(olds, same, RESTORE_INPUTS)).toEqual([]);
    expect(changedActionInputs(olds, { ...olds, triggers: [2], timeoutSeconds: 9 }, RESTORE_INPUTS)).toEqual([
      "triggers",
    ]);
    expect(changedActionInputs(olds, { ...olds, triggers: [UNKNOWN] }, RESTORE_INPUTS)).toEqual(["triggers"]);
    const { triggers: _t, ...without } = olds;
    expect(changedActionInputs(olds, without, RESTORE_INPUTS)).toEqual(["triggers"]);
  });

  it("summarises a restore, including one whose database choice is not known yet", () => {
    expect(restoreSummary({ ...olds, restoreDatabase: UNKNOWN })).toBe(
      `DESTRUCTIVE: restore install ${INSTALL} from backup ${BACKUP}: overwrites its files, and the database ` +
        "if restoreDatabase is true; database: (known after apply); checkpoint first: yes; notify: ops@example.com",
    );
  });
});

describe("BackupRestore update", () => {
  /** A client whose install stays pending: every wait runs out. */
  const pendingClient = () => {
    const calls: string[] = [];
    const client = {
      backups: {
        restore: async () => {
          calls.push("restore");
          return { message: "Restore initiated" };
        },
      },
      installs: { get: async () => ({ id: INSTALL, name: "x", status: "pending" }) },
    } as unknown as WpEngineClient;
    return { client, calls };
  };

  it("records the new run when the wait after it runs out (so the next up does not restore twice)", async () => {
    const { client, calls } = pendingClient();
    const err = await provider.definition.update!(
      "id",
      olds,
      { ...olds, triggers: [2] },
      contextOf(provider.definition, client, olds),
    ).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(calls).toEqual(["restore"]);
    expect(err).toBeInstanceOf(CreatedButFailedError);
    expect((err as CreatedButFailedError).properties).toMatchObject({
      restoreCount: 2,
      installStatus: "pending",
    });
    expect((err as Error).message).toMatch(/waiting for install .* to finish restoring \(timeoutSeconds 1\)/);
  });

  it("records a create whose wait runs out (the id travels with the error), so it is not restored twice", async () => {
    const { client, calls } = pendingClient();
    const { restoreCount: _c, lastRestoredAt: _l, installStatus: _s, summary: _m, ...inputs } = olds;
    const err = await provider.definition
      .create(inputs as never, contextOf(provider.definition, client, inputs))
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(calls).toEqual(["restore"]);
    expect(err).toBeInstanceOf(CreatedButFailedError);
    expect((err as CreatedButFailedError).id).toMatch(/^[0-9a-f-]{36}$/);
    expect((err as CreatedButFailedError).properties).toMatchObject({
      restoreCount: 1,
      installStatus: "pending",
    });
  });

  it("waits again without restoring when nothing the restore uses changed", async () => {
    const { client, calls } = pendingClient();
    await expect(
      provider.definition.update!("id", olds, { ...olds }, contextOf(provider.definition, client, olds)),
    ).rejects.toThrow(/timed out/);
    expect(calls).toEqual([]);
  });

  it("hands the engine the id and the new outputs of a run whose wait failed (a partial update)", async () => {
    setStackConfig((k) => ({ "wpengine:username": "u", "wpengine:password": "p" })[k]);
    resetClient();
    try {
      const failing = defineProvider({
        ...provider.definition,
        update: async () => {
          throw new CreatedButFailedError(
            "the-id",
            { restoreCount: 2, lastRestoredAt: "now" },
            new Error("too slow"),
          );
        },
      });
      const news = { ...olds, triggers: [2], __provider: "serialized" };
      const err = (await failing.update!("the-id", olds, news).then(
        () => undefined,
        (e: unknown) => e,
      )) as Error & { id?: string; properties?: Record<string, unknown> };
      expect(err.message).toBe("wpengine:BackupRestore update failed: too slow");
      expect(err.id).toBe("the-id");
      expect(err.properties).toMatchObject({ triggers: [2], restoreCount: 2, __provider: "serialized" });
    } finally {
      clearStackConfig();
      resetClient();
    }
  });
});
