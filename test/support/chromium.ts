/**
 * Headless Chromium for the browser tier, driven over the Chrome DevTools Protocol with Node's own
 * WebSocket (Node 22): no browser library, nothing downloaded. The browser is Debian's `chromium`
 * (`.ci/run` installs it when missing; `CHROMIUM` names another binary). No browser is a failure, never
 * a skip.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The browser binary: `CHROMIUM`, else the first of chromium, chromium-browser, google-chrome on PATH. */
export function chromiumBinary(): string {
  const candidates = [process.env["CHROMIUM"], "chromium", "chromium-browser", "google-chrome"].filter(
    (c): c is string => !!c,
  );
  for (const c of candidates) {
    if (spawnSync(c, ["--version"], { encoding: "utf8" }).status === 0) return c;
  }
  throw new Error(
    "no Chromium for the browser tests: run .ci/run (it installs Debian's chromium), or apt-get install -y chromium, or set CHROMIUM to a Chromium binary",
  );
}

type Pending = { resolve: (v: Record<string, unknown>) => void; reject: (e: Error) => void };

/** One page of a headless browser. */
export class HeadlessPage {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners: ((method: string, params: Record<string, unknown>) => void)[] = [];

  private constructor(
    private readonly proc: ChildProcess,
    private readonly ws: WebSocket,
    private readonly profile: string,
    private sessionId = "",
  ) {
    ws.addEventListener("message", (ev) => {
      const msg = JSON.parse(String(ev.data)) as {
        id?: number;
        method?: string;
        params?: Record<string, unknown>;
        result?: Record<string, unknown>;
        error?: { message: string };
      };
      if (msg.id !== undefined) {
        const p = this.pending.get(msg.id);
        this.pending.delete(msg.id);
        if (msg.error) p?.reject(new Error(msg.error.message));
        else p?.resolve(msg.result ?? {});
      } else if (msg.method) for (const l of this.listeners) l(msg.method, msg.params ?? {});
    });
  }

  /** Starts the browser and opens a blank page of `width` × `height`. */
  static async open(width = 1280, height = 900): Promise<HeadlessPage> {
    const profile = mkdtempSync(join(tmpdir(), "wpe-chromium-"));
    const proc = spawn(
      chromiumBinary(),
      [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--hide-scrollbars",
        "--no-first-run",
        "--remote-debugging-port=0",
        `--user-data-dir=${profile}`,
        "about:blank",
      ],
      // Its own process group, so that close ends its helper processes too.
      { stdio: ["ignore", "ignore", "pipe"], detached: true },
    );
    const url = await new Promise<string>((resolve, reject) => {
      let err = "";
      const timer = setTimeout(() => reject(new Error(`chromium did not start:\n${err}`)), 60_000);
      proc.stderr!.on("data", (b) => {
        err += b;
        const m = /DevTools listening on (ws:\/\/\S+)/.exec(err);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]!);
        }
      });
      proc.on("exit", (code) => reject(new Error(`chromium exited (${code}):\n${err}`)));
    });
    const ws = new WebSocket(url);
    await new Promise((resolve, reject) => {
      ws.addEventListener("open", resolve, { once: true });
      ws.addEventListener("error", () => reject(new Error(`cannot connect to ${url}`)), { once: true });
    });
    const page = new HeadlessPage(proc, ws, profile);
    const { targetId } = await page.send("Target.createTarget", { url: "about:blank" });
    const { sessionId } = await page.send("Target.attachToTarget", { targetId, flatten: true });
    page.sessionId = String(sessionId);
    await page.send("Page.enable");
    await page.send("Emulation.setDeviceMetricsOverride", {
      width,
      height,
      deviceScaleFactor: 1,
      mobile: false,
    });
    return page;
  }

  send(method: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    const id = this.nextId++;
    const msg = { id, method, params, ...(this.sessionId ? { sessionId: this.sessionId } : {}) };
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.ws.send(JSON.stringify(msg));
    });
  }

  /** Navigates and resolves once the page's load event fired. */
  async goto(url: string): Promise<void> {
    const loaded = new Promise<void>((resolve) => {
      this.listeners.push((m) => {
        if (m === "Page.loadEventFired") resolve();
      });
    });
    await this.send("Page.navigate", { url });
    await loaded;
  }

  /** Evaluates `expression` in the page; returns its value (JSON-serialisable). */
  async evaluate<T>(expression: string): Promise<T> {
    const r = (await this.send("Runtime.evaluate", { expression, returnByValue: true })) as {
      result: { value: T };
      exceptionDetails?: { text: string };
    };
    if (r.exceptionDetails) throw new Error(`in the page: ${r.exceptionDetails.text}`);
    return r.result.value;
  }

  /** A PNG of the whole page (beyond the viewport). */
  async screenshot(): Promise<Buffer> {
    const r = await this.send("Page.captureScreenshot", { format: "png", captureBeyondViewport: true });
    return Buffer.from(String(r["data"]), "base64");
  }

  /**
   * Ends the browser and its helper processes, and removes its profile: `Browser.close` first, so that
   * Chromium stops writing the profile before it exits (a plain kill left helpers writing to it).
   */
  async close(): Promise<void> {
    const ended =
      this.proc.exitCode === null ? new Promise((resolve) => this.proc.once("exit", resolve)) : undefined;
    this.sessionId = "";
    const asked = this.send("Browser.close").catch(() => undefined);
    await Promise.race([asked, new Promise((resolve) => setTimeout(resolve, 5_000))]);
    this.ws.close();
    const group = (signal: NodeJS.Signals) => {
      try {
        process.kill(-this.proc.pid!, signal);
      } catch {
        // The group has ended.
      }
    };
    const late = setTimeout(() => group("SIGKILL"), 10_000);
    await ended;
    clearTimeout(late);
    group("SIGKILL");
    rmSync(this.profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  }
}
