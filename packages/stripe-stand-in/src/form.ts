/** A decoded form body as Stripe reads it: `items[0][price]=p` → `{ items: [{ price: 'p' }] }`. */
export type FormValue = string | FormValue[] | { [key: string]: FormValue };
export type Form = { [key: string]: FormValue };

/**
 * Decodes Stripe's form encoding (the SDK writes nested objects as `a[b]` and arrays as `a[0]`;
 * `a[]` is accepted too, as curl users write it). Objects whose keys are all indexes become arrays.
 */
export function decodeForm(body: string): Form {
  const root: Form = {};
  for (const [rawKey, value] of new URLSearchParams(body)) {
    const [head, ...rest] = rawKey.split('[');
    const path = [head ?? '', ...rest.map((part) => part.replace(/]$/, ''))];
    let node: Record<string, FormValue> = root;
    path.forEach((part, index) => {
      const key = part === '' && index > 0 ? String(Object.keys(node).length) : part;
      if (index === path.length - 1) {
        node[key] = value;
        return;
      }
      const next = node[key];
      if (typeof next !== 'object' || next === null) node[key] = {};
      node = node[key] as Record<string, FormValue>;
    });
  }
  return arraysFromIndexes(root) as Form;
}

function arraysFromIndexes(value: FormValue): FormValue {
  if (typeof value === 'string' || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  const entries = keys.map((key) => [key, arraysFromIndexes(value[key] as FormValue)] as const);
  if (keys.length > 0 && keys.every((key) => /^\d+$/.test(key))) {
    return entries.sort(([a], [b]) => Number(a) - Number(b)).map(([, item]) => item);
  }
  return Object.fromEntries(entries);
}
