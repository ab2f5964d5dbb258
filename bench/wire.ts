/**
 * Struct decoding in the resource plugin (plugin/wire.ts): the plugin keeps Read's and Diff's
 * Structs as the bytes the engine sent and decodes those it needs with protobufjs. Does that still
 * pay beside the stubs' own decoding (google-protobuf's `Struct.deserializeBinary(...).toJavaScript()`)?
 * The outputs of a role binding, a group and an identity provider as a refresh receives them,
 * decoded each way in alternating rounds; the figure is the median time per Struct.
 */
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import { valuesOf } from "../plugin/wire";
import { median, runWhenMain } from "./side-by-side";

const ORG = "5b0c3bd5f39bb7b4d5ab3cd50c5ee5e25cb30718";
const SECRET = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", value: "[secret]" };
const hydrated = (uid: string, name: string) => ({ uid, name, description: "", createTime: "2026-11-27T06:00:00Z", updateTime: "2026-11-27T06:00:00Z" });

/** Outputs as the plugin records them (secrets wrapped as the engine sends them). */
const SAMPLES: Record<string, Record<string, unknown>> = {
  "role binding": {
    uid: `${ORG}/35f614a52160e04f/1a2b3c4d5e6f7a8b`,
    groupUid: `${ORG}/35f614a52160e04f`,
    identityUid: `${ORG}/35f614a52160e04f/0f1e2d3c4b5a6978`,
    roleUid: `${ORG}/0123456789abcdef`,
    identity: hydrated(`${ORG}/35f614a52160e04f/0f1e2d3c4b5a6978`, "ci-deploy"),
    role: { ...hydrated(`${ORG}/0123456789abcdef`, "releaser"), capabilities: ["CAP_IAM_GROUPS_LIST", "CAP_REPO_LIST", "CAP_TAG_CREATE"] },
    createTime: "2026-11-27T06:00:00Z",
    updateTime: "2026-11-27T06:00:00Z",
  },
  group: {
    uid: `${ORG}/35f614a52160e04f`,
    parentUid: ORG,
    name: "engineering",
    description: "Everyone who builds the product",
    kind: "GROUP_KIND_FOLDER",
    status: "GROUP_STATUS_ACTIVE",
    createTime: "2026-11-27T06:00:00Z",
    updateTime: "2026-11-27T06:00:00Z",
  },
  "identity provider": {
    uid: `${ORG}/35f614a52160e04f/aabbccddeeff0011`,
    groupUid: `${ORG}/35f614a52160e04f`,
    name: "sso",
    description: "",
    defaultRoleUid: `${ORG}/0123456789abcdef`,
    oidc: {
      ...SECRET,
      value: { issuer: "https://login.acme.example", clientId: "irv", clientSecret: "[secret]", additionalScopes: ["email", "groups"], pkce: true },
    },
    createTime: "2026-11-27T06:00:00Z",
    updateTime: "2026-11-27T06:00:00Z",
  },
};

const ROUNDS = 15;
const PER_ROUND = 4_000;

/** µs per decode of `bytes` by `decode`, over one round. */
function round(bytes: Buffer, decode: (b: Buffer) => unknown): number {
  const t0 = performance.now();
  for (let i = 0; i < PER_ROUND; i++) decode(bytes);
  return ((performance.now() - t0) * 1000) / PER_ROUND;
}

const byProtobufjs = (b: Buffer) => valuesOf(b);
const byStubs = (b: Buffer) => structproto.Struct.deserializeBinary(b).toJavaScript();

/** Runs the benchmark and returns its report. */
export async function runWireBench(): Promise<string> {
  const lines = [
    "## Struct decoding in the resource plugin",
    "",
    `Median µs per Struct over ${ROUNDS} alternating rounds of ${PER_ROUND.toLocaleString("en")} decodes each.`,
    "",
    "| outputs of | bytes | protobufjs (the plugin) | stubs (google-protobuf) | stubs / protobufjs |",
    "|---|---|---|---|---|",
  ];
  for (const [name, values] of Object.entries(SAMPLES)) {
    const bytes = Buffer.from(structproto.Struct.fromJavaScript(values as Parameters<typeof structproto.Struct.fromJavaScript>[0]).serializeBinary());
    // Both must give the same values, or the comparison means nothing.
    if (JSON.stringify(byProtobufjs(bytes)) !== JSON.stringify(byStubs(bytes))) throw new Error(`${name}: the two decodings differ`);
    for (let i = 0; i < 2; i++) (round(bytes, byProtobufjs), round(bytes, byStubs)); // warm-up
    const ours: number[] = [];
    const stubs: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      if (r % 2) (ours.push(round(bytes, byProtobufjs)), stubs.push(round(bytes, byStubs)));
      else (stubs.push(round(bytes, byStubs)), ours.push(round(bytes, byProtobufjs)));
    }
    const a = median(ours);
    const b = median(stubs);
    lines.push(`| ${name} | ${bytes.length} | ${a.toFixed(1)} µs | ${b.toFixed(1)} µs | ${(b / a).toFixed(2)}x |`);
  }
  return lines.join("\n");
}

runWhenMain(module, runWireBench);
