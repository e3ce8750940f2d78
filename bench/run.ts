import { readdirSync } from 'node:fs';

// `pnpm bench <name>` runs bench/<name>.bench.ts; without a name it lists what there is.
const benches = readdirSync(import.meta.dirname)
  .filter((file) => file.endsWith('.bench.ts'))
  .map((file) => file.slice(0, -'.bench.ts'.length));
const name = process.argv[2];
if (!name || !benches.includes(name)) {
  console.error(`usage: pnpm bench <name>\navailable: ${benches.join(', ') || '(none)'}`);
  process.exit(name ? 1 : 0);
}
await import(`./${name}.bench.ts`);
