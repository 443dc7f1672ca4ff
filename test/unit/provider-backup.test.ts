import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BACKUP_POLL, normalizeEmails } from "../../provider/core/inputs";
import { CreatedButFailedError, contextOf } from "../../provider/core/lifecycle";
import {
  abortedMessage,
  type BackupInputs,
  backupOutputs,
  definition,
  isTerminalBackupStatus,
} from "../../provider/kinds/Backup";
import type { Backup, WpEngineClient } from "../../sdk";

const { provider } = definition;

const INSTALL = "1e000000-0000-4000-8000-000000000001";
const record = (over: Partial<Backup> & Record<string, unknown> = {}): Backup => ({
  id: "b1",
  status: "requested",
  description: "nightly",
  create_time: "2025-01-01T00:00:00.000Z",
  complete_time: null,
  cms_version: "6.8.1",
  ...over,
});

/** A client whose backup stays requested at create, then reports `then` on every read. */
function fakeClient(then: Backup): WpEngineClient {
  return {
    backups: { create: async () => record(), get: async () => then },
  } as unknown as WpEngineClient;
}

const inputs: BackupInputs = {
  installId: INSTALL,
  description: "nightly",
  notificationEmails: ["ops@example.com"],
  wait: true,
  timeoutSeconds: 1,
};

const saved = { ...BACKUP_POLL };
beforeAll(() => Object.assign(BACKUP_POLL, { intervalMs: 10, maxIntervalMs: 50 }));
afterAll(() => Object.assign(BACKUP_POLL, saved));

describe("Backup helpers", () => {
  it("maps a service record to outputs, nulls for what the service left out", () => {
    expect(backupOutputs(record({ cms_version: undefined, description: null }))).toEqual({
      backupId: "b1",
      status: "requested",
      createTime: "2025-01-01T00:00:00.000Z",
      completeTime: null,
      cmsVersion: null,
    });
  });

  it("knows the final states", () => {
    expect(["requested", "in_progress", "completed", "aborted"].map(isTerminalBackupStatus)).toEqual([
      false,
      false,
      true,
      true,
    ]);
  });

  it("says why a backup was aborted when the service says it, and that it did not otherwise", () => {
    expect(abortedMessage(INSTALL, record({ status: "aborted", reason: "disk quota exceeded" }))).toMatch(
      /backup b1 of install .* was aborted by the service: disk quota exceeded/,
    );
    expect(abortedMessage(INSTALL, record({ status: "aborted" }))).toMatch(/\(the service gave no reason\)/);
  });

  it("compares address lists regardless of order, case and duplicates", () => {
    expect(normalizeEmails(["B@x.io", "a@x.io", "b@x.io"])).toEqual(["a@x.io", "b@x.io"]);
    expect(normalizeEmails(undefined)).toBeNull();
  });

  it("asks for a new backup only when the one on record was aborted", () => {
    expect(definition.lost!({ status: "aborted" })).toEqual({ replace: "status" });
    expect(definition.lost!({ status: "in_progress" })).toBeUndefined();
  });
});

describe("Backup create while waiting", () => {
  it("records the backup (its id travels with the error) when the service aborts it, with the reason", async () => {
    const aborted = record({ status: "aborted", reason: "disk quota exceeded" });
    const err = await provider.definition
      .create(inputs, contextOf(provider.definition, fakeClient(aborted), inputs))
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(err).toBeInstanceOf(CreatedButFailedError);
    const failed = err as CreatedButFailedError;
    expect(failed.id).toBe("b1");
    expect(failed.properties).toMatchObject({ backupId: "b1", status: "aborted" });
    expect(failed.message).toMatch(/aborted by the service: disk quota exceeded/);
  });

  it("records the backup when the deadline passes first, naming what it waited for", async () => {
    const err = await provider.definition
      .create(inputs, contextOf(provider.definition, fakeClient(record({ status: "in_progress" })), inputs))
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(err).toBeInstanceOf(CreatedButFailedError);
    expect((err as CreatedButFailedError).id).toBe("b1");
    expect((err as Error).message).toMatch(
      /timed out after \d+ ms waiting for backup b1 of install .* to complete \(timeoutSeconds 1\) \(last state: in_progress\)/,
    );
  });
});
