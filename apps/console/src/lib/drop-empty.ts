/**
 * Spec §5: empty (falsy) values are dropped from JSON request bodies. We drop `undefined`, `null` and `''` only:
 * `0` and `false` are meaningful values in this API (e.g. a number claim of 0, a boolean flag set to false), and
 * dropping them would make it impossible to send them at all. Nested plain objects are cleaned too; arrays are
 * kept as they are (their positions carry meaning).
 */
export function dropEmpty<T>(value: T): T {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  if (Object.getPrototypeOf(value) !== Object.prototype) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    if (v === undefined || v === null || v === '') continue;
    out[key] = dropEmpty(v);
  }
  return out as T;
}
