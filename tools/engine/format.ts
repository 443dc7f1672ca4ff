/** Prints an engine summary the way a person reads `pulumi up`: one line per step, then outputs and counts. */
import { displayType, type EngineSummary, type StepOp, type StepSummary } from "./engine";

const SYMBOL: Record<StepOp, string> = { create: "+", update: "~", replace: "+-", delete: "-", same: " " };

const DONE: Record<StepOp, string> = {
  create: "created",
  update: "updated",
  replace: "replaced",
  delete: "deleted",
  same: "unchanged",
};

const PLANNED: Record<StepOp, string> = {
  create: "to create",
  update: "to update",
  replace: "to replace",
  delete: "to delete",
  same: "unchanged",
};

const REFRESHED: Record<StepOp, string> = {
  create: "created",
  update: "changed on the service",
  replace: "replaced",
  delete: "gone from the service",
  same: "unchanged",
};

const FAILED: Record<StepOp, string> = {
  create: "create",
  update: "update",
  replace: "replace",
  delete: "delete",
  same: "step",
};

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)}s`;
}

function formatValue(v: unknown): string {
  const text = JSON.stringify(v);
  return text === undefined ? "undefined" : text.length > 200 ? `${text.slice(0, 197)}...` : text;
}

/** One line: `+ wpengine:Domain www created (id 1f0c...) [0.4s]`. */
export function formatStep(step: StepSummary, kind: EngineSummary["kind"] = "up"): string {
  const verbs = kind === "preview" ? PLANNED : kind === "refresh" ? REFRESHED : DONE;
  let line = `${displayType(step.type)} ${step.name} ${verbs[step.op]}`;
  if (step.op === "replace" && step.oldId) line += ` (id ${step.oldId}${step.id ? ` -> ${step.id}` : ""})`;
  else if (step.id) line += ` (id ${step.id})`;
  const keys = step.op === "replace" && step.replaceKeys?.length ? step.replaceKeys : step.changedKeys;
  if (keys.length && step.op !== "create") line += `: ${keys.join(", ")}`;
  if (step.durationMs >= 100 && kind !== "preview") line += ` [${seconds(step.durationMs)}]`;
  if (step.error) {
    const id = step.id ? ` (id ${step.id})` : "";
    const what = `${displayType(step.type)} ${step.name} ${FAILED[step.op]} failed${id}`;
    return `! ${what}\n    ${step.error.replace(/\n/g, "\n    ")}`;
  }
  return `${SYMBOL[step.op]} ${line}`;
}

/** The whole summary, several lines, ready for a console. */
export function formatSummary(summary: EngineSummary): string {
  const lines: string[] = [];
  const title: Record<EngineSummary["kind"], string> = {
    up: "Updating",
    preview: "Previewing update",
    refresh: "Refreshing",
    destroy: "Destroying",
  };
  lines.push(`${title[summary.kind]} (${summary.project}/${summary.stack}):`);
  for (const step of summary.steps) lines.push(`  ${formatStep(step, summary.kind)}`);
  const outputs = Object.entries(summary.outputs);
  if (outputs.length && (summary.kind === "up" || summary.kind === "preview")) {
    lines.push("Outputs:");
    for (const [k, o] of outputs) {
      const shown = o.secret ? "[secret]" : o.known === false ? "(known after up)" : formatValue(o.value);
      lines.push(`  ${k}: ${shown}`);
    }
  }
  const counts = (Object.entries(summary.changes) as [StepOp, number][])
    .filter(([, n]) => n > 0)
    .map(([op, n]) => `${n} ${(summary.kind === "preview" ? PLANNED : DONE)[op]}`);
  const failed = summary.steps.filter((s) => s.error).length;
  if (failed) counts.push(`${failed} failed`);
  lines.push(`Resources: ${counts.length ? counts.join(", ") : "none"}`);
  // What the provider said (e.g. what a delete did on the service), as the CLI shows among diagnostics.
  const said = summary.diagnostics.filter((d) => d.startsWith("wpengine:"));
  if (said.length) {
    lines.push("Diagnostics:");
    for (const d of said) lines.push(`  ${d}`);
  }
  if (summary.errors.length) {
    lines.push(`Errors (${summary.errors.length}):`);
    for (const e of summary.errors) lines.push(`  ${e.replace(/\n/g, "\n  ")}`);
  }
  lines.push(`Duration: ${seconds(summary.durationMs)}${summary.ok ? "" : " (FAILED)"}`);
  return lines.join("\n");
}
