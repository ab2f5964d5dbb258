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
 * A record of `keys` whose values are made by `make` on their first read, each then kept as a
 * plain member (a table of every kind's schemas, of which an operation reads a few).
 */
export function lazyRecord<K extends string, V>(keys: readonly K[], make: (key: K) => V): Record<K, V> {
  const out = {} as Record<K, V>;
  for (const key of keys)
    Object.defineProperty(out, key, {
      enumerable: true,
      configurable: true,
      get() {
        const value = make(key);
        Object.defineProperty(out, key, { value, enumerable: true, writable: false, configurable: false });
        return value;
      },
    });
  return out;
}
