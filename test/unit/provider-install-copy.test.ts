import { describe, expect, it } from "vitest";
import { resetClient } from "../../provider/core/client";
import { clearStackConfig, setStackConfig } from "../../provider/core/config";
import { UNKNOWN } from "../../provider/core/inputs";
import { contextOf, defineProvider } from "../../provider/core/lifecycle";
import { copyRequest, copySummary, definition } from "../../provider/kinds/InstallCopy";
import type { WpEngineClient } from "../../sdk";

const { provider } = definition;

const SRC = "1e000000-0000-4000-8000-000000000001";
const DST = "1e000000-0000-4000-8000-000000000002";

describe("InstallCopy helpers", () => {
  it("builds the request body: options always explicit, tables only with the database, no empty address list", () => {
    expect(
      copyRequest({
        sourceEnvironmentId: SRC,
        destinationEnvironmentId: DST,
        includeFiles: true,
        includeDb: true,
      }),
    ).toEqual({
      source_environment_id: SRC,
      destination_environment_id: DST,
      custom_options: { include_files: true, include_db: true },
    });
    expect(
      copyRequest({
        sourceEnvironmentId: SRC,
        destinationEnvironmentId: DST,
        notificationEmails: ["ops@example.com"],
        includeFiles: false,
        includeDb: true,
        dbTables: ["wp_posts"],
      }),
    ).toEqual({
      source_environment_id: SRC,
      destination_environment_id: DST,
      notification_emails: ["ops@example.com"],
      custom_options: { include_files: false, include_db: true, db_tables: ["wp_posts"] },
    });
    expect(
      copyRequest({
        sourceEnvironmentId: SRC,
        destinationEnvironmentId: DST,
        notificationEmails: [],
        includeFiles: true,
        includeDb: false,
      }),
    ).toEqual({
      source_environment_id: SRC,
      destination_environment_id: DST,
      custom_options: { include_files: true, include_db: false },
    });
  });

  it("summarises a copy whose file choice is not known yet", () => {
    expect(
      copySummary({
        sourceEnvironmentId: SRC,
        destinationEnvironmentId: DST,
        includeFiles: UNKNOWN,
        includeDb: false,
      }),
    ).toBe(
      `DESTRUCTIVE: copy files if includeFiles is true from environment ${SRC} over environment ${DST}; ` +
        "notify: (nobody: completion is only announced by email)",
    );
  });

  it("lists every input whose change copies again", () => {
    expect([...definition.updatable].sort()).toEqual(
      [
        "dbTables",
        "destinationEnvironmentId",
        "includeDb",
        "includeFiles",
        "notificationEmails",
        "sourceEnvironmentId",
        "triggers",
      ].sort(),
    );
  });

  it("update keeps the record of the last run and sends nothing when no copy input changed", async () => {
    const client = {
      installCopy: {
        create: async () => {
          throw new Error("must not copy");
        },
      },
    } as unknown as WpEngineClient;
    const olds = {
      sourceEnvironmentId: SRC,
      destinationEnvironmentId: DST,
      includeFiles: true,
      includeDb: true,
      requestCount: 3,
      lastRequestedAt: "2025-01-01T00:00:00.000Z",
      lastMessage: "Install copy initiated",
    };
    // The kind re-runs nothing; the lifecycle keeps the recorded outputs.
    const kept = defineProvider({
      ...provider.definition,
      update: (id, o, n) => provider.definition.update!(id, o, n, contextOf(provider.definition, client, o)),
    });
    setStackConfig((k) => ({ "wpengine:username": "u", "wpengine:password": "p" })[k]);
    resetClient();
    try {
      const { requestCount: _n, lastRequestedAt: _at, lastMessage: _m, ...news } = olds;
      expect((await kept.update!("id", olds, news)).outs).toEqual(olds);
    } finally {
      clearStackConfig();
      resetClient();
    }
  });
});
