/**
 * `make`'s value, made on the first call and kept: what a module would otherwise build at load
 * (a kind's bodies, a module only some calls need). The engine starts the plugin for every
 * operation, so work done at load is paid by operations that never use it.
 */
export function once<T>(make: () => T): () => T {
  let made = false;
  let value: T;
  return () => {
    if (!made) {
      value = make();
      made = true;
    }
    return value;
  };
}

/**
 * Makes member `key` of `target` a getter that runs `make` on its first read, then keeps the value
 * as a plain, read-only member: what a kind's fields and a table of kinds are built with.
 */
export function lazyMember<T extends object, K extends PropertyKey, V>(target: T, key: K, make: () => V): void {
  Object.defineProperty(target, key, {
    enumerable: true,
    configurable: true,
    get() {
      const value = make();
      Object.defineProperty(target, key, { value, enumerable: true, writable: false, configurable: false });
      return value;
    },
  });
}

/**
 * A record of `keys` whose values are made by `make` on their first read, each then kept as a
 * plain member (a table of every kind's schemas, of which an operation reads a few).
 */
export function lazyRecord<K extends string, V>(keys: readonly K[], make: (key: K) => V): Record<K, V> {
  const out = {} as Record<K, V>;
  for (const key of keys) lazyMember(out, key, () => make(key));
  return out;
}

/**
 * A table whose members are made by their own makers on their first read, each member typed as
 * what its maker returns (a kind's spec, a cloud's block), then kept as a plain member.
 */
export function lazyTable<M extends Record<string, () => unknown>>(makers: M): { [K in keyof M]: ReturnType<M[K]> } {
  const out = {} as { [K in keyof M]: ReturnType<M[K]> };
  for (const key of Object.keys(makers)) lazyMember(out, key, makers[key]);
  return out;
}
