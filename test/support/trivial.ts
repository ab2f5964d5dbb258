/** The trivial dynamic resource (harness/trivial.ts), which the benchmarks share, for the tests. */
export * from "../../harness/trivial";
