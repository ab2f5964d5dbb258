/** The engine harness (harness/engine.ts), which the benchmarks share, for the tests. */
export * from "../../harness/engine";
