import { existsSync, readFileSync, statSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { ConfigMap, Deployment } from "@pulumi/pulumi/automation";
import { load } from "js-yaml";
import { isObject } from "../api/guards";
import { passphraseDecrypter, passphraseOf, type Decrypt } from "./passphrase";

/**
 * A stack's state and config read from its files, as `pulumi stack export --show-secrets` and
 * `pulumi config --show-secrets --json` print them, without starting the pulumi CLI (twice) or
 * deriving the passphrase's key more than once: only for the cases irv knows exactly, a stack on
 * a local file backend (`file://`) whose secrets provider is the passphrase, its config plain
 * strings and secrets in its own stack file. Anything else gives undefined, and the caller asks
 * the CLI as before: other secrets providers, the cloud or bucket backends, project-level config,
 * ESC environments, compressed or older checkpoints, typed or structured config values.
 * Hostile files are data: YAML's default schema builds no functions, sizes are bounded, and
 * the state is walked without recursion.
 */

/** What a stack file may hold that irv reads itself; any other key sends the read to the CLI. */
const STACK_FILE_KEYS = new Set(["config", "encryptionsalt", "secretsprovider"]);
/** A stack name irv maps to its files itself (Pulumi's characters; a qualified name goes to the CLI). */
const PLAIN_NAME = /^[A-Za-z0-9_.-]+$/;
/** A settings file larger than this is not one irv reads itself. */
const MAX_YAML_BYTES = 1 << 20;
/** How Pulumi marks a secret in state: this key with this value, and `ciphertext` (or, decrypted, `plaintext`). */
const SIG_KEY = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

/** The stack's decrypted state and config, or undefined when irv does not read this stack itself. */
export async function readStackFiles(workDir: string, name: string, env: NodeJS.ProcessEnv): Promise<{ state: Deployment; config: ConfigMap } | undefined> {
  if (!PLAIN_NAME.test(name)) return undefined;
  const project = projectOf(workDir);
  if (!project) return undefined;
  const backend = backendDir(project, env);
  if (!backend) return undefined;
  const stackFile = stackFileOf(workDir, name);
  if (stackFile === null) return undefined;
  const checkpoint = checkpointOf(backend, project.name, name);
  if (!checkpoint) return undefined;

  // The secrets each part holds, and the salt that opens them.
  const configSecrets = Object.values(stackFile.config).filter((v): v is { secure: string } => typeof v !== "string");
  const stateSecrets = secretsIn(checkpoint.latest);
  const stateProvider = checkpoint.latest.secrets_providers as { type?: unknown; state?: { salt?: unknown } } | undefined;
  const salt = stateProvider?.type === "passphrase" ? stateProvider.state?.salt : undefined;
  const stateSalt = typeof salt === "string" ? salt : undefined;
  const configSalt = stackFile.encryptionsalt;
  if (configSecrets.length && configSalt === undefined) return undefined;
  if (stateSecrets.length && stateSalt === undefined) return undefined;
  const phrase = configSecrets.length || stateSecrets.length ? passphraseOf(env) : "";
  if (phrase === undefined) return undefined; // the CLI says what is missing, as before
  const opening = new Map<string, Promise<Decrypt>>();
  const decrypterOf = (salt: string | undefined): Promise<Decrypt> | undefined => {
    if (salt === undefined) return undefined;
    const open = opening.get(salt) ?? passphraseDecrypter(salt, phrase, name);
    opening.set(salt, open);
    return open;
  };
  const [configDecrypt, stateDecrypt] = await Promise.all([
    configSecrets.length ? decrypterOf(configSalt) : undefined,
    stateSecrets.length ? decrypterOf(stateSalt) : undefined,
  ]);

  const config: ConfigMap = {};
  for (const [key, v] of Object.entries(stackFile.config)) {
    config[key] = typeof v === "string" ? { value: v, secret: false } : { value: opened(configDecrypt, v.secure, name, "config"), secret: true };
  }
  for (const { envelope, ciphertext } of stateSecrets) {
    envelope.plaintext = opened(stateDecrypt, ciphertext, name, "state");
    delete envelope.ciphertext;
  }
  const state = { version: 3, ...(checkpoint.features ? { features: checkpoint.features } : {}), deployment: checkpoint.latest } as Deployment;
  return { state, config };
}

function opened(decrypt: Decrypt | undefined, ciphertext: string, stack: string, where: string): string {
  try {
    if (!decrypt) throw new Error("no key");
    return decrypt(ciphertext);
  } catch {
    throw new Error(`stack ${stack}: a secret in its ${where} does not decrypt with its passphrase`);
  }
}

interface Project {
  name: string;
  backendUrl?: string;
}

/** The project file's name and backend, when it holds nothing that changes how config reads (project config, a config folder). */
function projectOf(workDir: string): Project | undefined {
  const files = ["Pulumi.yaml", "Pulumi.yml"].map((f) => path.join(workDir, f)).filter((f) => existsSync(f));
  if (files.length !== 1) return undefined;
  const p = yamlFile(files[0]);
  if (!p || typeof p.name !== "string" || "config" in p || "stackConfigDir" in p) return undefined;
  const backend = p.backend;
  if (backend === undefined) return { name: p.name };
  if (!isObject(backend) || (backend.url !== undefined && typeof backend.url !== "string")) return undefined;
  return { name: p.name, backendUrl: backend.url };
}

/** The local folder of a `file://` backend, as the CLI picks the backend: PULUMI_BACKEND_URL, the project's, then the login's. */
function backendDir(project: Project, env: NodeJS.ProcessEnv): string | undefined {
  let url = env.PULUMI_BACKEND_URL || project.backendUrl;
  if (!url) {
    const home = env.PULUMI_HOME || path.join(os.homedir(), ".pulumi");
    try {
      const current = (JSON.parse(readFileSync(path.join(home, "credentials.json"), "utf8")) as { current?: unknown }).current;
      url = typeof current === "string" ? current : undefined;
    } catch {
      return undefined;
    }
  }
  const m = url && /^file:\/\/([^?#]*)$/.exec(url);
  if (!m) return undefined;
  const dir = m[1] === "~" || m[1].startsWith("~/") ? path.join(os.homedir(), m[1].slice(1)) : m[1];
  return path.isAbsolute(dir) ? dir : undefined;
}

interface StackFile {
  encryptionsalt?: string;
  config: Record<string, string | { secure: string }>;
}

/** The stack file's salt and config (undefined when there is none); null when it holds what irv leaves to the CLI. */
function stackFileOf(workDir: string, name: string): StackFile | null {
  const files = [`Pulumi.${name}.yaml`, `Pulumi.${name}.yml`].map((f) => path.join(workDir, f)).filter((f) => existsSync(f));
  if (files.length === 0) return { config: {} };
  if (files.length > 1) return null;
  const s = yamlFile(files[0]);
  if (!s || Object.keys(s).some((k) => !STACK_FILE_KEYS.has(k))) return null;
  if (s.secretsprovider !== undefined && s.secretsprovider !== "passphrase") return null;
  if (s.encryptionsalt !== undefined && typeof s.encryptionsalt !== "string") return null;
  const config: StackFile["config"] = {};
  if (s.config !== undefined && s.config !== null) {
    if (!isObject(s.config)) return null;
    for (const [key, v] of Object.entries(s.config)) {
      // A key without a namespace, or a value that is not a string or a secret string, the CLI reads.
      if (!key.includes(":")) return null;
      if (typeof v === "string") config[key] = v;
      else if (isObject(v) && Object.keys(v).length === 1 && typeof v.secure === "string") config[key] = { secure: v.secure };
      else return null;
    }
  }
  return { encryptionsalt: s.encryptionsalt, config };
}

interface Checkpoint {
  features?: unknown;
  latest: Record<string, unknown>;
}

/** The stack's latest deployment in a file backend, when stored as plain JSON in the current checkpoint version. */
function checkpointOf(backend: string, project: string, name: string): Checkpoint | undefined {
  const stacks = path.join(backend, ".pulumi", "stacks");
  const meta = path.join(backend, ".pulumi", "meta.yaml");
  let version = 0;
  if (existsSync(meta)) {
    const m = yamlFile(meta);
    if (!m || (m.version !== undefined && typeof m.version !== "number")) return undefined;
    version = m.version ?? 0;
  }
  if (version !== 0 && version !== 1) return undefined;
  const base = version === 1 ? path.join(stacks, project, name) : path.join(stacks, name);
  // The CLI picks the newest of .json, .json.gz and .json.zst; irv reads plain JSON alone.
  if ([".json.gz", ".json.zst"].some((ext) => existsSync(base + ext))) return undefined;
  let text: string;
  try {
    text = readFileSync(`${base}.json`, "utf8");
  } catch {
    return undefined; // no such stack: the CLI says so in its words
  }
  let chk: unknown;
  try {
    chk = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(chk) || chk.version !== 3 || !isObject(chk.checkpoint) || !isObject(chk.checkpoint.latest)) return undefined;
  return { ...(chk.features !== undefined ? { features: chk.features } : {}), latest: chk.checkpoint.latest };
}

/** Every secret envelope in `root` that carries a ciphertext, found without recursion. */
function secretsIn(root: unknown): { envelope: Record<string, unknown>; ciphertext: string }[] {
  const found: { envelope: Record<string, unknown>; ciphertext: string }[] = [];
  const todo: unknown[] = [root];
  while (todo.length) {
    const v = todo.pop();
    if (Array.isArray(v)) for (const x of v) todo.push(x);
    else if (isObject(v)) {
      if (v[SIG_KEY] === SECRET_SIG && typeof v.ciphertext === "string") found.push({ envelope: v, ciphertext: v.ciphertext });
      else for (const x of Object.values(v)) todo.push(x);
    }
  }
  return found;
}

function yamlFile(file: string): Record<string, unknown> | undefined {
  try {
    if (statSync(file).size > MAX_YAML_BYTES) return undefined;
    const v = load(readFileSync(file, "utf8"));
    return isObject(v) ? v : undefined;
  } catch {
    return undefined;
  }
}
