import { describe, expect, it } from "vitest";
import { call, SEED, useSimulator } from "./helpers";

const { installs: I } = SEED;

// A throwaway self-signed test certificate (CN=acme.example) with its key, and an unrelated key.
const CERT = `-----BEGIN CERTIFICATE-----
MIIBgjCCASmgAwIBAgIUFmpThT+IpqpG3+RPBIYMhrD1X+AwCgYIKoZIzj0EAwIw
FzEVMBMGA1UEAwwMYWNtZS5leGFtcGxlMB4XDTI2MTEyMjAxNDM0MloXDTM2MTEx
OTAxNDM0MlowFzEVMBMGA1UEAwwMYWNtZS5leGFtcGxlMFkwEwYHKoZIzj0CAQYI
KoZIzj0DAQcDQgAE5yGZ7Jv1X2PCGj/wbSFOB+evTrB3qloCG0v/zwjpragHOkXd
BfN+DjUQyFW6YVdMS1xhlpP4iB7B5pEM/QywZ6NTMFEwHQYDVR0OBBYEFJmVY+rq
JPRDlb3diE8a6tdrOxy/MB8GA1UdIwQYMBaAFJmVY+rqJPRDlb3diE8a6tdrOxy/
MA8GA1UdEwEB/wQFMAMBAf8wCgYIKoZIzj0EAwIDRwAwRAIgbE+GizOAx5zlyfVN
8GgTxOrWNNcBGOjq73KCnM2dAh0CIHna90jKPj3UemCkq83b1+6oMJvk9LGe9b3i
VYXyhxPU
-----END CERTIFICATE-----
`;
const KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgSSZ595rty6w7sxjg
4humZ6uMKfmx1S0s9vrEe9RuJzmhRANCAATnIZnsm/VfY8IaP/BtIU4H569OsHeq
WgIbS//PCOmtqAc6Rd0F834ONRDIVbphV0xLXGGWk/iIHsHmkQz9DLBn
-----END PRIVATE KEY-----
`;
const OTHER_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgQsGFGFDYrtZrjwQM
yYMBgAvSgI49XE7gkCUBQSliLX2hRANCAAR6wc1TbWmAkpNumOYhqDcH48hW2d38
lkBNG8bUKWeSvC8ptBSYnrXKFbsKhWFeUOTKcVlcoTIwD9xEvZCQJoHp
-----END PRIVATE KEY-----
`;
const b64 = (s: string) => Buffer.from(s).toString("base64");

describe("install copy", () => {
  const sim = useSimulator();
  const copy = (body: unknown, user?: "partial") => call(sim(), "POST", "/v1/install_copy", body, { user });

  it("accepts a copy between installs of the same account (202 {message})", async () => {
    const r = await copy({
      source_environment_id: I.acmeprod.id,
      destination_environment_id: I.acmestg.id,
      notification_emails: ["ops@acme.example"],
      custom_options: { include_files: true, include_db: true, db_tables: ["wp_posts"] },
    });
    expect(r.status).toBe(202);
    expect(r.body.message).toEqual(expect.any(String));
  });

  it("rejects source and destination on different accounts with 400", async () => {
    const r = await copy({
      source_environment_id: I.acmeprod.id,
      destination_environment_id: I.initechprod.id,
    });
    expect(r.status).toBe(400);
    expect(r.body.errors[0]).toMatchObject({ resource: "install_copy", code: "different_accounts" });
  });

  it("rejects db_tables when include_db is false with 400", async () => {
    const r = await copy({
      source_environment_id: I.acmeprod.id,
      destination_environment_id: I.acmestg.id,
      custom_options: { include_db: false, db_tables: ["wp_posts"] },
    });
    expect(r.status).toBe(400);
    expect(r.body.errors[0].field).toBe("custom_options.db_tables");
    const filesOnly = await copy({
      source_environment_id: I.acmeprod.id,
      destination_environment_id: I.acmestg.id,
      custom_options: { include_db: false },
    });
    expect(filesOnly.status).toBe(202);
  });

  it("answers 404 for an unknown install and 403 for a partial user without both installs", async () => {
    const unknown = await copy({
      source_environment_id: I.acmeprod.id,
      destination_environment_id: "00000000-0000-4000-8000-000000000000",
    });
    expect(unknown.status).toBe(404);
    const partial = await copy(
      { source_environment_id: I.acmeprod.id, destination_environment_id: I.acmestg.id },
      "partial",
    );
    expect(partial.status).toBe(403);
  });
});

describe("offload settings", () => {
  const sim = useSimulator();
  const path = `/v1/installs/${I.acmeprod.id}/offload_settings/files`;
  const settings = {
    cloud: "s3",
    bucket: "acme-media",
    bucket_region: "us-east-1",
    path_settings: [{ path: "wp-content/uploads", excluded_paths: [], redirect_type: "permanent" }],
  };

  it("accepts a PATCH (202) that is pending, then applied on the clock", async () => {
    const r = await call(sim(), "PATCH", path, { largefs_settings: settings });
    expect(r.status).toBe(202);
    const pending = await call(sim(), "GET", path);
    expect(pending.body).toEqual({ largefs_settings: settings, status: "pending" });
    sim().advance(2);
    expect((await call(sim(), "GET", path)).body.status).toBe("applied");
  });

  it("merges a partial PATCH into the current settings and reads the large_fs_config wrapper too", async () => {
    await call(sim(), "PATCH", path, { largefs_settings: settings });
    const r = await call(sim(), "PATCH", path, { large_fs_config: { bucket: "acme-media-2" } });
    expect(r.status).toBe(202);
    expect((await call(sim(), "GET", path)).body.largefs_settings).toEqual({
      ...settings,
      bucket: "acme-media-2",
    });
  });

  it("rejects invalid values and a first configuration without bucket (400)", async () => {
    const badCloud = await call(sim(), "PATCH", path, { largefs_settings: { ...settings, cloud: "gcs" } });
    expect(badCloud.status).toBe(400);
    expect(badCloud.body.errors[0].field).toBe("largefs_settings.cloud");
    const badRedirect = await call(sim(), "PATCH", path, {
      largefs_settings: {
        ...settings,
        path_settings: [{ path: "x", excluded_paths: [], redirect_type: "temporary" }],
      },
    });
    expect(badRedirect.status).toBe(400);
    const incomplete = await call(sim(), "PATCH", path, { largefs_settings: { cloud: "s3" } });
    expect(incomplete.status).toBe(400);
    expect(incomplete.body.errors[0].field).toBe("largefs_settings.bucket");
  });
});

describe("third-party certificates", () => {
  const sim = useSimulator();
  const path = `/v1/installs/${I.acmeprod.id}/ssl_certificates/third_party`;

  it("imports a matching base64 PEM certificate and key (200, echoed)", async () => {
    const body = { certificate: b64(CERT), private_key: b64(KEY) };
    const r = await call(sim(), "POST", path, body);
    expect(r.status).toBe(200);
    expect(r.body).toEqual(body);
  });

  it("rejects a key that does not match, a non-PEM certificate, and a missing key (400)", async () => {
    const mismatch = await call(sim(), "POST", path, { certificate: b64(CERT), private_key: b64(OTHER_KEY) });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.errors[0]).toMatchObject({ field: "private_key", code: "key_mismatch" });
    const garbage = await call(sim(), "POST", path, { certificate: b64("hello"), private_key: b64(KEY) });
    expect(garbage.status).toBe(400);
    expect(garbage.body.errors[0].field).toBe("certificate");
    const missing = await call(sim(), "POST", path, { certificate: b64(CERT) });
    expect(missing.status).toBe(400);
    expect(missing.body.errors[0].field).toBe("private_key");
  });
});
