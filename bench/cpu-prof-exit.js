// Loaded with `--require` next to `--cpu-prof` by `node bench/engine.js --profile`: the engine ends its
// plugins and the language host with a signal, and node writes a CPU profile only when it exits on its
// own, so a signal becomes an exit here (profiling runs only).
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => process.exit(128));
