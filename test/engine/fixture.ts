/**
 * A self-contained Pulumi program for testing the local engine itself, independent of WP Engine: a
 * dynamic resource `fixture:Item` whose provider keeps objects in a JSON file (`FIXTURE_STORE`). The
 * provider is defined in the program (outside `node_modules`), so Pulumi serializes it by value.
 *
 * Behaviour is driven by stack config (`fixture:*`), so a test changes inputs by changing config.
 */

import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { unknownValue } from "@pulumi/pulumi/runtime/rpc";

const REPO = path.resolve(__dirname, "../..");

export const ITEM_PROGRAM = `"use strict";
const pulumi = require("@pulumi/pulumi");

const provider = {
  async configure(req) {
    globalThis.__fixtureToken = req.config.get("fixture:token");
  },
  async check(olds, news) {
    // Proof for the tests that preview unknowns reach Check as Pulumi's sentinel.
    const unknown = Object.keys(news).filter((k) => news[k] === "${unknownValue}");
    if (unknown.length) require("fs").appendFileSync(process.env.FIXTURE_STORE + ".unknowns", news.label + ":" + unknown.join(",") + "\\n");
    const failures = [];
    if (typeof news.label !== "string" || news.label === "") failures.push({ property: "label", reason: "label must be a non-empty string" });
    return { inputs: { ...news, kind: news.kind || "plain" }, failures };
  },
  async diff(id, olds, news) {
    const keys = ["label", "kind", "ref", "note"];
    const changed = keys.filter((k) => JSON.stringify(olds[k] ?? null) !== JSON.stringify(news[k] ?? null));
    const replaces = changed.filter((k) => k === "kind");
    return { changes: changed.length > 0, replaces, deleteBeforeReplace: news.dbr === true && replaces.length > 0 };
  },
  async create(inputs) {
    const fs = require("fs");
    const file = process.env.FIXTURE_STORE;
    const db = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : { seq: 0, items: {} };
    const id = "item-" + ++db.seq;
    const tokenSeen = typeof globalThis.__fixtureToken === "string" && globalThis.__fixtureToken.length > 0;
    const outs = { label: inputs.label, kind: inputs.kind, ref: inputs.ref ?? null, note: inputs.note ?? null, computed: "c-" + inputs.label, tokenSeen };
    db.items[id] = outs;
    fs.writeFileSync(file, JSON.stringify(db));
    if (inputs.failAfterCreate) {
      const err = new Error("created, then the follow-up step failed");
      err.id = id;
      err.properties = { ...outs, partial: true };
      throw err;
    }
    return { id, outs };
  },
  async read(id, props) {
    const fs = require("fs");
    const db = JSON.parse(fs.readFileSync(process.env.FIXTURE_STORE, "utf8"));
    const item = db.items[id];
    if (!item) return { id: "" };
    return { id, props: { ...props, ...item }, inputs: { label: item.label, kind: item.kind, ref: item.ref, note: item.note } };
  },
  async update(id, olds, news) {
    const fs = require("fs");
    const file = process.env.FIXTURE_STORE;
    const db = JSON.parse(fs.readFileSync(file, "utf8"));
    const outs = { ...db.items[id], label: news.label, ref: news.ref ?? null, note: news.note ?? null, computed: "c-" + news.label };
    db.items[id] = outs;
    fs.writeFileSync(file, JSON.stringify(db));
    return { outs };
  },
  async delete(id) {
    const fs = require("fs");
    const file = process.env.FIXTURE_STORE;
    const db = JSON.parse(fs.readFileSync(file, "utf8"));
    if (process.env.FIXTURE_FAIL_DELETE === id) throw new Error("delete refused for " + id);
    delete db.items[id];
    fs.writeFileSync(file, JSON.stringify(db));
  },
};

class Item extends pulumi.dynamic.Resource {
  constructor(name, args, opts) {
    super(provider, name, { computed: undefined, tokenSeen: undefined, ...args }, opts, "fixture", "Item");
  }
}

const cfg = new pulumi.Config("fixture");
const first = new Item("first", {
  label: cfg.get("label") ?? "one",
  kind: cfg.get("kind") ?? "plain",
  note: pulumi.secret(cfg.get("note") ?? "s3cr3t-note"),
  failAfterCreate: cfg.getBoolean("failAfterCreate") ?? false,
  dbr: cfg.getBoolean("dbr") ?? false,
}, { additionalSecretOutputs: ["computed"] });
const second = new Item("second", { label: "two", ref: first.computed });
if (cfg.getBoolean("third")) {
  new Item("third", { label: second.computed });
}
if (cfg.getBoolean("group")) {
  class Group extends pulumi.ComponentResource {
    constructor(name, opts) {
      super("fixture:Group", name, {}, opts);
      this.child = new Item("child", { label: "in-group" }, { parent: this });
      this.registerOutputs({});
    }
  }
  new Group("grp");
}
exports.firstId = first.id;
exports.secondRef = second.ref;
exports.secondComputed = second.computed;
exports.firstNote = first.note;
`;

/** A temporary program directory whose `node_modules` is this repository's (no install needed). */
export function linkedProgramDir(source: string, prefix = "engine-fixture-"): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  fs.symlinkSync(path.join(REPO, "node_modules"), path.join(dir, "node_modules"), "dir");
  fs.writeFileSync(path.join(dir, "index.js"), source);
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: fixture\nruntime: nodejs\n");
  return dir;
}

/** The fixture's object store. */
export function readStore(file: string): { seq: number; items: Record<string, Record<string, unknown>> } {
  return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : { seq: 0, items: {} };
}
