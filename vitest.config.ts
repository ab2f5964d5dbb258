import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // e2e tests drive the pulumi CLI; two cores do not gain from more workers than that.
    maxWorkers: 2,
  },
});
