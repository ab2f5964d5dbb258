/** The engine harness (harness/engine.ts, and harness/plugin.ts for programs on a resource plugin), which the benchmarks share, for the tests. */
export * from "../../harness/engine";
export * from "../../harness/plugin";
