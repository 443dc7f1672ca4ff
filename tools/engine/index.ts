/**
 * The local engine: runs a Pulumi program of dynamic resources like `pulumi up` does, without the
 * Pulumi CLI, through the real `@pulumi/pulumi` dynamic-provider plugin. Used by the engine tests and
 * by the demo on machines without the CLI.
 */
export {
  changedKeys,
  deletionOrder,
  displayType,
  type EngineSummary,
  LocalEngine,
  type LocalEngineOptions,
  type OperationKind,
  type OutputValue,
  type StepOp,
  type StepSummary,
  unwrapSecrets,
} from "./engine";
export { formatStep, formatSummary } from "./format";
export {
  type CheckFailure,
  type CheckResult,
  type CreateResult,
  type DiffResult,
  type InitFailure,
  loadPulumiModules,
  PluginCallError,
  PluginClient,
  type PluginTimeouts,
  type PropertyMap,
  type ReadResult,
  resolvePulumiRoot,
  type StartPluginOptions,
  UNKNOWN,
} from "./plugin";
export { type ProgramResult, type RunProgramOptions, runProgram } from "./program";
export type { ProgramOutput, RegisteredOptions, RegisterMessage } from "./runner";
export type { ResourceState, StackOutput, StackState } from "./state";
