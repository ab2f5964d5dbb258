import { defineConfig } from "vitest/config";
import { GoBuildsFirst } from "./test/support/sequencer";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The Pulumi CLI and its language hosts, checked once before any file runs.
    globalSetup: ["test/support/global-setup.ts"],
    // Time limits catch a hang, never slowness: on a loaded machine a test that spawns a dozen
    // CLIs takes minutes, and its outcome must not depend on that (it failed at 60 s under load).
    testTimeout: 300_000,
    hookTimeout: 300_000,
    // e2e tests drive the pulumi CLI; two cores do not gain from more workers than that.
    maxWorkers: 2,
    // The files that compile Go first, then the longest (test/support/sequencer.ts).
    sequence: { sequencer: GoBuildsFirst },
  },
});
