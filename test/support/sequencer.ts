/**
 * The order test files start in (vitest's `sequence.sequencer`). Two workers share two cores: a
 * run ends when its last file does, so a long file started late makes a tail on one worker.
 * vitest's own order runs a file that failed last time first, then the longest by the durations
 * it recorded, and on a machine with no record (a fresh clone) the largest file first. On top of
 * that, the files that compile a Go program start first: on a machine whose Go build cache is
 * cold each compiles Pulumi's Go SDK (minutes), work that then runs beside the other files
 * instead of at the end.
 */
import { existsSync } from "node:fs";
import * as path from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The files that build Go programs of their own (the CLI, its hosts and the test tools are built
 * before any file): a Go program on the Go SDK, and the SDK generator (scripts/gen-sdks) with one.
 */
const GO_BUILDING_FILES = ["test/e2e/plugin-go.test.ts", "test/toolchain/gen-sdks.test.ts"];
for (const name of GO_BUILDING_FILES) {
  if (!existsSync(path.join(__dirname, "..", "..", name))) throw new Error(`test/support/sequencer.ts names ${name}, which is gone`);
}

export class GoBuildsFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification) => {
      const i = GO_BUILDING_FILES.findIndex((name) => f.moduleId.endsWith(`/${name}`));
      return i < 0 ? GO_BUILDING_FILES.length : i;
    };
    // A stable sort: every other file keeps vitest's place.
    return sorted
      .map((f, i) => ({ f, i }))
      .sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i)
      .map(({ f }) => f);
  }
}
