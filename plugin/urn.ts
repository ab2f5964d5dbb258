/**
 * The resource type a URN names (`urn:pulumi:stack::project::irv:iam:Group::name` names
 * `irv:iam:Group`): it sits between the second and third `::`, after the last `$` of a parent's type.
 */
export function typeOfUrn(urn: string): string {
  const start = urn.indexOf("::", urn.indexOf("::") + 2) + 2;
  const qualified = urn.slice(start, urn.indexOf("::", start));
  return qualified.slice(qualified.lastIndexOf("$") + 1);
}
