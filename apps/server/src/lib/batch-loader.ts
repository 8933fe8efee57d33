/**
 * Loads by key in batches: the keys asked for during one turn of the event loop are read by one call of
 * `loadMany`, at most `maxBatch` keys per call, each distinct key once. Nothing is kept between batches: every
 * answer is as fresh as the read that made it.
 */
export function createBatchLoader<K, V>(
  loadMany: (keys: K[]) => Promise<Map<K, V>>,
  options: { maxBatch: number },
): (key: K) => Promise<V | undefined> {
  if (!(options.maxBatch >= 1)) throw new RangeError('maxBatch must be at least 1');
  let waiting = new Map<K, { resolve: (value: V | undefined) => void; reject: (error: unknown) => void }[]>();

  function flush(): void {
    const batch = waiting;
    waiting = new Map();
    const keys = [...batch.keys()];
    for (let start = 0; start < keys.length; start += options.maxBatch) {
      const slice = keys.slice(start, start + options.maxBatch);
      loadMany(slice).then(
        (found) => {
          for (const key of slice) for (const w of batch.get(key)!) w.resolve(found.get(key));
        },
        (error: unknown) => {
          for (const key of slice) for (const w of batch.get(key)!) w.reject(error);
        },
      );
    }
  }

  return (key) =>
    new Promise<V | undefined>((resolve, reject) => {
      if (waiting.size === 0) setImmediate(flush);
      const callers = waiting.get(key);
      if (callers) callers.push({ resolve, reject });
      else waiting.set(key, [{ resolve, reject }]);
    });
}
