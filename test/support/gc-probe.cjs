/**
 * Preloaded (`--require`) into an irv-server started with `--expose-gc` by a test that measures
 * what the server keeps, not what it has yet to collect: on SIGUSR2 it collects every garbage
 * object and writes the memory still in use to stderr, as one `gc-probe {...}` line.
 */
process.on("SIGUSR2", () => {
  // Twice: the first collection may leave array buffers to a sweeper the second one waits on.
  globalThis.gc({ type: "major", execution: "sync" });
  globalThis.gc({ type: "major", execution: "sync" });
  const { heapUsed, external } = process.memoryUsage();
  process.stderr.write(`gc-probe ${JSON.stringify({ heapUsed, external })}\n`);
});
