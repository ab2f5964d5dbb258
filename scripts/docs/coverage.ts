/**
 * docs/api-coverage.md: what irv-server implements of the platform's public API, and what
 * pulumi-irv sends it. Every row comes from the project's records of the platform's protos: the
 * services, methods and REST mappings in api/grpc (with whether irv-server serves each), and each
 * kind's fields, proto names, field behaviour and enums in its definition (api/kinds).
 */
import type protobuf from "protobufjs";
import type { z } from "zod";
import { grpcRoot, GRPC_PACKAGES, type ProtoMethod, type ProtoPackage } from "../../api/grpc";
import { SDK_SERVICES } from "../../api/grpc/catalog";
import { displayNameOf, fieldEntries, KINDS, maskPathOf, wireNameOf, type FieldDefinition, type KindDefinition, type ProtoField } from "../../api/kinds";

export const COVERAGE_PAGE = "api-coverage.md";

const code = (s: string) => `\`${s}\``;
const typeOf = (p: ProtoField) => (p.keyType ? `map<${p.keyType}, ${p.type}>` : `${p.repeated ? "repeated " : ""}${p.type}`);
const behaviourOf = (p?: ProtoField) => (p?.behavior ?? []).map((b) => b.toLowerCase().replaceAll("_", " ")).join(", ");

/** The packages that have services, as the page lists them. */
const servicePackages = (): ProtoPackage[] => GRPC_PACKAGES.filter((p) => Object.keys(p.services ?? {}).length > 0);

/** Whether irv-server serves a method (it then answers on REST and on gRPC alike). */
export const isServed = (m: ProtoMethod): boolean => "request" in m;

/** The REST mapping of a method as irv-server serves it: the mapping's path under the service's prefix. */
export const restPathOf = (m: ProtoMethod, prefix = ""): string => `${prefix}${m.http?.path ?? ""}`;

/** The REST cell of a method's row: its verb and path, or "none" (a method without a mapping). */
export const restCell = (m: ProtoMethod): string => (m.http ? code(`${m.http.method.toUpperCase()} ${m.http.path}`) : "none");

/** The table of one package's services and methods. */
function servicesSection(p: ProtoPackage): string[] {
  const out: string[] = [];
  for (const [name, service] of Object.entries(p.services ?? {})) {
    out.push(`### ${code(`${p.package}.${name}`)}`, "");
    if (service.restPrefix) out.push(`irv-server serves this service's REST paths under ${code(service.restPrefix)} (its token issuer's URL).`, "");
    out.push("| method | REST | body | REST in irv-server | gRPC in irv-server |", "|---|---|---|---|---|");
    for (const [method, m] of Object.entries(service.methods)) {
      const served = isServed(m);
      const body = m.http?.body === undefined ? "" : m.http.body === "*" ? "the whole request" : code(m.http.body);
      out.push(`| ${code(method)} | ${restCell(m)} | ${body} | ${served ? "yes" : "no"} | ${served ? "yes" : "no: answers `UNIMPLEMENTED`"} |`);
    }
    out.push("");
  }
  return out;
}

/** The SDK's services irv-server has no record of (api/grpc/catalog.ts): every method answers UNIMPLEMENTED. */
export function unrecordedServices(): [string, Readonly<Record<string, string>>][] {
  const known = new Set(servicePackages().flatMap((p) => Object.keys(p.services ?? {}).map((s) => `${p.package}.${s}`)));
  return Object.entries(SDK_SERVICES).filter(([name]) => !known.has(name));
}

/** A catalog mapping (`post /x body=*`) as the page writes it: the REST cell and the body cell. */
function mappingCells(rule: string): [string, string] {
  if (rule === "") return ["none", ""];
  const [verb, path, body] = rule.split(" ");
  const b = body?.slice("body=".length);
  return [code(`${verb.toUpperCase()} ${path}`), b === undefined ? "" : b === "*" ? "the whole request" : code(b)];
}

/** The section of the SDK's other services, one table each. */
function unservedSection(): string[] {
  const out: string[] = [];
  for (const [name, methods] of unrecordedServices()) {
    out.push(`### ${code(name)}`, "", "| method | REST | body | REST in irv-server | gRPC in irv-server |", "|---|---|---|---|---|");
    for (const [method, rule] of Object.entries(methods)) {
      const [rest, body] = mappingCells(rule);
      out.push(`| ${code(method)} | ${rest} | ${body} | no | no: answers \`UNIMPLEMENTED\` |`);
    }
    out.push("");
  }
  return out;
}

/** The proto type a field of `d` names, resolved as proto resolves it (relative to the kind's package). */
function resolve(d: KindDefinition, type: string): protobuf.ReflectionObject | null {
  return (grpcRoot().lookup(d.proto.package) as protobuf.Namespace).lookup(type);
}

/** The members of a message field of `d` as the kind's facts record them, by wire name. */
function membersOf(d: KindDefinition, f: FieldDefinition): [string, ProtoField][] {
  const m = f.proto && (d.proto.messages ?? []).find((x) => x.name === f.proto!.type);
  return m ? Object.entries(m.fields) : [];
}

/** The methods of the kind's service. */
const methodsOf = (d: KindDefinition): Record<string, ProtoMethod> =>
  GRPC_PACKAGES.find((p) => p.package === d.proto.package)!.services![d.proto.service].methods;

/** Whether the kind has an Update method (an invite has none: every change replaces it). */
const updates = (d: KindDefinition): boolean => `Update${d.proto.message}` in methodsOf(d);

/** The update mask paths pulumi-irv sends for field `name` of `d` (none when a change replaces). */
function maskPaths(d: KindDefinition, name: string, f: FieldDefinition): string[] {
  if (!f.schema || f.part || f.replace || !updates(d)) return [];
  const wire = wireNameOf(name, f);
  // A block's changed members are named one by one (provider/resources/diff.ts).
  const members = f.block
    ? membersOf(d, f)
        .filter(([, p]) => !p.behavior?.includes("OUTPUT_ONLY"))
        .map(([m]) => `${wire}.${m}`)
    : [];
  return [wire, ...members].map((p) => maskPathOf(d.kind, p));
}

/** One kind: the create body, the update mask paths, and each field's behaviour. */
function kindSection(d: KindDefinition): string[] {
  const methods = methodsOf(d);
  const create = methods[`Create${d.proto.message}`];
  const update = methods[`Update${d.proto.message}`];
  const fields = fieldEntries(d.fields);
  const body = fields.filter(([, f]) => f.schema && !f.part).map(([n, f]) => code(wireNameOf(n, f)));
  const masks = fields.flatMap(([n, f]) => maskPaths(d, n, f));
  const out = [`### ${code(d.proto.message)} (${code(displayNameOf(d))})`, ""];
  // A singleton (a repo's deployment): its owner's id in the path, and an Update that replaces it whole.
  const parentVar = /\{(\w+)/.exec(create.http?.path ?? "")?.[1] ?? "parent";
  out.push(`- Create: ${restCell(create)} with the ${code(d.parentField)} as ${code(parentVar)}; the body's members: ${body.join(", ")}.`);
  if (d.singleton && update)
    out.push(
      `- Update: ${restCell(update)} with every member (no mask: it replaces the charts). Delete: none; pulumi-irv deletes by an Update with ${code(JSON.stringify(d.singleton.cleared))}, as the platform's Terraform provider does.`,
    );
  else if (!update) out.push(`- Update: none (the API has no ${code(`Update${d.proto.message}`)}): any change replaces it.`);
  else if (masks.length === 0) out.push(`- Update: ${restCell(update)}, never sent: every input change replaces it.`);
  else out.push(`- Update: ${restCell(update)} with ${code("updateMask")} naming what changed, of: ${masks.map(code).join(", ")}.`);
  out.push("", "| field (wire) | proto name | number | type | behaviour | sent on create | update mask path |", "|---|---|---|---|---|---|---|");
  const uidName = d.proto.uidName ?? "uid";
  out.push(`| ${code(uidName)} | ${code(uidName)} | ${d.proto.uid} | ${code("string")} | | | |`);
  for (const [name, f] of fields) {
    if (!f.proto) continue;
    const wire = wireNameOf(name, f);
    const mask = maskPaths(d, name, f)[0];
    out.push(
      `| ${code(wire)} | ${code(maskPathOf(d.kind, wire))} | ${f.proto.number} | ${code(typeOf(f.proto))} | ${behaviourOf(f.proto)} | ${f.schema ? "yes" : ""} | ${mask ? code(mask) : ""} |`,
    );
    // A message a program gives: its members' behaviour (what is required inside it).
    if (!f.schema) continue;
    for (const [member, p] of membersOf(d, f)) {
      const path = `${wire}.${member}`;
      const memberMask = maskPaths(d, name, f).find((m) => m === maskPathOf(d.kind, path));
      out.push(
        `| ${code(path)} | ${code(maskPathOf(d.kind, path))} | ${p.number} | ${code(typeOf(p))} | ${behaviourOf(p)} | | ${memberMask ? code(memberMask) : ""} |`,
      );
    }
  }
  out.push("");
  return out;
}

/** The enums pulumi-irv sends by name: every enum a program's input (or a member of one) carries. */
function enumsSection(): string[] {
  const out: string[] = [];
  for (const d of KINDS as readonly KindDefinition[]) {
    for (const [name, f] of fieldEntries(d.fields)) {
      if (!f.schema || !f.proto) continue;
      const wire = wireNameOf(name, f);
      const candidates: [string, ProtoField][] = [[wire, f.proto], ...membersOf(d, f).map(([m, p]): [string, ProtoField] => [`${wire}.${m}`, p])];
      for (const [path, p] of candidates) {
        const e = resolve(d, p.type) as protobuf.Enum | null;
        if (!e || !("values" in e)) continue;
        out.push(`### ${code(`${d.className}.${path}`)}: ${code(e.fullName.slice(1))}`, "");
        // What the request rule refuses at preview (an internal-only capability) is never sent.
        const rule = path === wire ? f.schema : (f.schema as z.ZodObject).shape?.[path.slice(wire.length + 1)];
        const accepted = ([v]: [string, number]) => !rule || rule.safeParse(p.repeated ? [v] : v).success;
        const all = Object.entries(e.values).filter(([, n]) => n !== 0);
        const values = all.filter(accepted);
        const refused = all.filter((x) => !accepted(x));
        if (f.codec && path === wire) {
          out.push("A program may write either name; pulumi-irv sends the enum's.", "", "| sent (enum name) | number | in a program |", "|---|---|---|");
          // The program's name (its friendly one), and the name without the enum's shared prefix
          // where the codec takes that too (`INGESTER`, as Terraform writes it).
          const prefix =
            /^[A-Z]+_(?:[A-Z]+_)*/.exec(
              all
                .map(([v]) => v)
                .reduce((a, b) => {
                  let i = 0;
                  while (i < a.length && a[i] === b[i]) i++;
                  return a.slice(0, i);
                }),
            )?.[0] ?? "";
          const programNames = (v: string) => {
            const friendly = [f.codec!.fromWire([v]) as string[]].flat()[0];
            const short = v.slice(prefix.length);
            return [friendly, ...(short !== friendly && [f.codec!.toWire(short)].flat()[0] === v ? [short] : [])].map(code).join(", ");
          };
          for (const [v, n] of values) out.push(`| ${code(v)} | ${n} | ${programNames(v)} |`);
        } else {
          out.push("A program writes the enum's name, and pulumi-irv sends it as written.", "", "| sent (enum name) | number |", "|---|---|");
          for (const [v, n] of values) out.push(`| ${code(v)} | ${n} |`);
        }
        if (refused.length) out.push("", `Refused at preview: ${refused.map(([v]) => code(v)).join(", ")}.`);
        out.push("");
      }
    }
  }
  return out;
}

/** The whole page. */
export function coveragePage(): string {
  const packages = servicePackages();
  const all = packages.flatMap((p) => Object.values(p.services ?? {}).flatMap((s) => Object.values(s.methods)));
  const served = all.filter(isServed).length;
  const sdkMethods = Object.values(SDK_SERVICES).reduce((n, m) => n + Object.keys(m).length, 0);
  return [
    "<!-- generated by `npm run gen:docs` from api/grpc and api/kinds, do not edit -->",
    "",
    "# The platform's API: what irv-server implements, what pulumi-irv sends",
    "",
    "The platform publishes its API as protobuf definitions, with each method's REST mapping, in its",
    "Go SDK (module `chainguard.dev/sdk`). Those definitions are the source of every fact on this",
    "page, which is generated from pulumi-irv's own records of them: `api/grpc` for the services,",
    `\`api/kinds\` for the ${KINDS.length} kinds programs manage. It lists every service and method of the SDK (v1, v2beta1,`,
    "the GA v2 and the rest), with its REST mapping and whether irv-server implements it, then,",
    "kind by kind, what pulumi-irv sends: create bodies, update masks, field behaviour, and the enums",
    "it sends by name.",
    "",
    `The SDK has ${Object.keys(SDK_SERVICES).length} services with ${sdkMethods} methods. irv-server knows ${all.length} of these methods and serves ${served}, each on REST and on gRPC at the same address;`,
    "a method it does not serve answers `UNIMPLEMENTED` on gRPC (naming its REST mapping when it knows it).",
    "",
    "Regenerate the page with `npm run gen:docs` after changing `api/grpc` or `api/kinds`;",
    "`test/docs/docs.test.ts` fails while it is stale.",
    "",
    "## Services",
    "",
    "Paths are the mappings' templates: `{uid=**}` is a uid with its slashes, `{group.uid=**}` the",
    "uid of the body's item. The body is the request field sent as JSON; the rest of the request",
    "travels in the query.",
    "",
    ...packages.flatMap(servicesSection),
    "## The SDK's other services",
    "",
    `The rest of the SDK's ${unrecordedServices().length} services (v1, v2beta1, v2 and the rest), none served by irv-server: on gRPC`,
    "every method answers `UNIMPLEMENTED` (`test/docs/api-coverage.test.ts` calls each). The REST mapping is the",
    "proto's; the registry v1, guardener and skills packages are given by name only.",
    "",
    ...unservedSection(),
    "## What pulumi-irv sends",
    "",
    "For each kind: the create request (its parent in the path, the body's members by their JSON",
    "names), the update mask paths (the proto field names, which the platform's gateway passes on",
    "as sent), and each field of the kind's message with its behaviour on the API: *output only*",
    "(set by the server, never sent), *input only* (sent, never returned), *required* (on create),",
    "*immutable* (fixed once created). Members of a block a program gives follow their field.",
    "",
    ...(KINDS as readonly KindDefinition[]).flatMap(kindSection),
    "## Enums pulumi-irv sends by name",
    "",
    "The JSON the API speaks carries enums by name. Every value pulumi-irv sends, which is every one",
    "but the unspecified one (number 0) and those its checks refuse:",
    "",
    ...enumsSection(),
  ]
    .join("\n")
    .replace(/\n+$/, "\n");
}
