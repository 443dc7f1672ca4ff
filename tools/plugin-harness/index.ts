/**
 * Test harness of the dynamic-provider plugin: a gRPC client of the real `@pulumi/pulumi` plugin
 * (plugin.ts), and a program run under Pulumi's own mocks in a child node to capture what it registers,
 * the real serialized `__provider` included (program.ts, runner.ts). The fast plugin-level tests use it;
 * everything end to end runs on the real `pulumi` CLI (test/cli).
 */
export {
  loadPulumiModules,
  PluginCallError,
  PluginClient,
  type PropertyMap,
  resolvePulumiRoot,
  UNKNOWN,
  unwrapSecrets,
} from "./plugin";
export { type ProgramResult, type RunProgramOptions, runProgram } from "./program";
export type { ProgramOutput, RegisteredOptions, RegisterMessage } from "./runner";
