/** The chaos proxy (harness/chaos-proxy.ts), which the benchmarks share, for the tests. */
export * from "../../harness/chaos-proxy";
