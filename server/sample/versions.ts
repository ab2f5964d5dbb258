/**
 * The sample's package versions (`GET /registry/v1/versions/<package>`): a few packages' version
 * streams, some past end of life, written out so tests can name exact values. Dates as the
 * platform writes them (`YYYY-MM-DD`).
 */
import type { Fixtures } from "./schema";

type Stream = [version: string, latest: string, released: string, eol: string, lts?: boolean];

const PACKAGES: Record<string, { streams: Stream[]; eol: Stream[]; grace?: number }> = {
  nodejs: {
    streams: [
      ["24", "24.11.1", "2025-05-06", "2028-04-30", true],
      ["22", "22.21.1", "2024-04-24", "2027-04-30", true],
      ["20", "20.19.5", "2023-04-18", "2026-04-30", true],
    ],
    eol: [
      ["18", "18.20.8", "2022-04-19", "2025-04-30", true],
      ["16", "16.20.2", "2021-04-20", "2023-09-11", true],
    ],
    grace: 6,
  },
  python: {
    streams: [
      ["3.14", "3.14.0", "2025-10-07", "2030-10-31"],
      ["3.13", "3.13.9", "2024-10-07", "2029-10-31"],
      ["3.12", "3.12.12", "2023-10-02", "2028-10-31"],
    ],
    eol: [["3.8", "3.8.20", "2019-10-14", "2024-10-07"]],
  },
  postgres: {
    streams: [
      ["18", "18.1", "2025-09-25", "2030-11-14"],
      ["17", "17.7", "2024-09-26", "2029-11-08"],
      ["16", "16.11", "2023-09-14", "2028-11-09"],
    ],
    eol: [["12", "12.22", "2019-10-03", "2024-11-21"]],
    grace: 3,
  },
  go: {
    streams: [
      ["1.25", "1.25.4", "2025-08-12", "2026-08-12"],
      ["1.24", "1.24.10", "2025-02-11", "2026-02-11"],
    ],
    eol: [["1.23", "1.23.12", "2024-08-13", "2025-08-12"]],
  },
};

const version = ([v, latest, releaseDate, eolDate, lts]: Stream, eol: boolean) => ({
  version: v,
  latestVersion: latest,
  releaseDate,
  eolDate,
  exists: true,
  fips: !eol,
  ...(lts ? { lts: true } : {}),
});

/** The sample's package versions, by package name. */
export function samplePackageVersions(): NonNullable<Fixtures["packageVersions"]> {
  return Object.fromEntries(
    Object.entries(PACKAGES).map(([name, p]) => [
      name,
      {
        latestVersion: p.streams[0][1],
        lastUpdatedTimestamp: "2025-11-20T00:00:00.000Z",
        ...(p.grace ? { gracePeriodMonths: p.grace } : {}),
        versions: p.streams.map((s) => version(s, false)),
        eolVersions: p.eol.map((s) => version(s, true)),
      },
    ]),
  );
}
