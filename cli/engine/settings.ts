import type { StackContents } from "../stack";
import { SETTINGS } from "../../client/config";
import { openedSecret } from "./values";

/**
 * The providers whose recorded inputs are the stack's `irv:*` config, with how each names a key:
 * the dynamic classes run on the default `pulumi-nodejs` provider, whose inputs are the whole
 * stack config (`irv:apiUrl`); the plugin's default `irv` provider records its own namespace's
 * keys without the prefix (`apiUrl`).
 */
const DEFAULT_PROVIDERS: { type: string; recordedKey: (key: string) => string }[] = [
  { type: "pulumi:providers:pulumi-nodejs", recordedKey: (key) => key },
  { type: "pulumi:providers:irv", recordedKey: (key) => key.slice(key.indexOf(":") + 1) },
];
/** The plugin's provider type: an explicit instance takes its settings from the program. */
const IRV_PROVIDER = "pulumi:providers:irv";
/** True for the URN of a default provider (`...::pulumi:providers:irv::default_0_1_0`). */
export const isDefault = (urn: string) => /::default(_[\w-]+)?$/.test(urn);

/** What a refresh must do so that the provider reads with the settings in force now. */
export interface SettingsCheck {
  /** The `irv:*` keys whose stack config differs from what a default provider recorded (values never returned: they may be credentials). */
  changed: string[];
  /** Run the program during the refresh: settings changed, or an explicit provider's settings come from the program. */
  runProgram: boolean;
}

/**
 * Compares the settings the stack's providers recorded at the last `pulumi up` with what is in
 * force now. A refresh that does not run the program reuses the recorded ones, so after
 * `pulumi config set irv:apiUrl ...` it would still read the old API. An explicit `irv` provider
 * (`new irv.Provider(...)`, a YAML `pulumi:providers:irv` resource) takes its settings from the
 * program, which may read them from config or the environment: only running the program tells,
 * so a stack that has one always runs it. Secrets are decrypted in `contents`, compared, dropped.
 */
export function checkSettings({ state, config }: StackContents): SettingsCheck {
  const resources = (state.deployment?.resources ?? []) as { type: string; urn: string; inputs?: Record<string, unknown> }[];
  const changed = new Set<string>();
  for (const { type, recordedKey } of DEFAULT_PROVIDERS)
    for (const provider of resources.filter((r) => r.type === type && isDefault(r.urn))) {
      const recorded = provider.inputs ?? {};
      for (const { key } of Object.values(SETTINGS)) if ((openedSecret(recorded[recordedKey(key)]) ?? "") !== (config[key]?.value ?? "")) changed.add(key);
    }
  const keys = Object.values(SETTINGS)
    .map((s) => s.key)
    .filter((k) => changed.has(k));
  const explicit = resources.some((r) => r.type === IRV_PROVIDER && !isDefault(r.urn));
  return { changed: keys, runProgram: keys.length > 0 || explicit };
}
