/** "Did you mean" for closed sets: the nearest known name to a typo. */

/** Edit distance (insertions, deletions, substitutions) between `a` and `b`. */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length];
}

/**
 * The name of `known` nearest to `input`, when it is near enough to be what was meant (at most a
 * third of the input's length away, and at most 4 edits); undefined otherwise.
 */
export function closest(input: unknown, known: readonly string[]): string | undefined {
  if (typeof input !== "string" || !input) return undefined;
  let best: string | undefined;
  let bestDistance = Math.min(4, Math.floor(input.length / 3));
  for (const name of known) {
    const d = distance(input.toLowerCase(), name.toLowerCase());
    if (d <= bestDistance && (best === undefined || d < bestDistance)) [best, bestDistance] = [name, d];
  }
  return best;
}

/** `message`, with " (did you mean "x"?)" when `input` is near a name of `known`. */
export function withSuggestion(message: string, input: unknown, known: readonly string[]): string {
  const near = closest(input, known);
  return near ? `${message} (did you mean "${near}"?)` : message;
}
