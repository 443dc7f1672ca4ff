// The commands of the package (docs/importer.md, docs/report.md, docs/recover.md, docs/simulator.md), from
// the compiled package (no build): `pulumi-wpengine <command>`, and the same through the plugin
// executable (`pulumi-resource-wpengine <command>`) for users who installed only the plugin.
const COMMANDS = ["import", "report", "recover", "simulator"];

/** Runs the command `process.argv[2]` names. */
function run() {
  const command = process.argv[2];
  if (command === "simulator") return require("../dist/simulator/cli.js").run(process.argv.slice(3));
  (command === "recover" ? require("../dist/recover/cli.js") : require("../dist/importer/cli.js"))
    .main()
    .then(
      (code) => process.exit(code),
      (err) => {
        process.stderr.write(`pulumi-wpengine: ${err?.stack ?? err}\n`);
        process.exit(1);
      },
    );
}

module.exports = { COMMANDS, run };
