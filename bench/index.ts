// `npm run bench` — runs named benchmarks and prints one `name: value` line per figure.
// Usage: node --import tsx bench/index.ts [filter ...]   (a filter matches a benchmark's name or a figure's name)
// To add figures: write a module exporting Benchmark[] and list it in `suites` below.
import { accessBenchmarks } from './access';
import { apiBenchmarks } from './api';
import { chatBenchmarks } from './chat';
import { explorerBenchmarks } from './explorer';
import { importBenchmarks } from './import';
import { featureBenchmarks } from './features';
import { limitBenchmarks } from './jsonCap';
import { outsidersBenchmarks } from './outsiders';
import { planBenchmarks } from './plan';
import { resumeBenchmarks } from './resume';
import { reviewBenchmarks } from './review';
import { membersFileBenchmarks } from './membersFile';
import { saveBackBenchmarks } from './saveBack';
import type { Benchmark, Figure } from './types';
import { uploadBenchmarks } from './uploads';

const suites: Benchmark[][] = [
  apiBenchmarks,
  limitBenchmarks,
  explorerBenchmarks,
  featureBenchmarks,
  planBenchmarks,
  membersFileBenchmarks,
  accessBenchmarks,
  resumeBenchmarks,
  importBenchmarks,
  chatBenchmarks,
  uploadBenchmarks,
  saveBackBenchmarks,
  reviewBenchmarks,
  outsidersBenchmarks,
];

function format(value: Figure['value']): string {
  if (typeof value === 'string') return value;
  if (Number.isInteger(value)) return String(value);
  return value.toFixed(Math.abs(value) >= 100 ? 1 : 3);
}

async function main(): Promise<void> {
  const filters = process.argv.slice(2);
  const all = suites.flat();
  const selected = all.filter(
    (b) => filters.length === 0 || filters.some((f) => b.name.includes(f) || b.figures.some((n) => n.includes(f))),
  );
  if (selected.length === 0) {
    console.error(
      `No benchmark matches ${filters.join(', ')}. Known: ${all.map((b) => `${b.name} (${b.figures.join(', ')})`).join('; ')}`,
    );
    process.exit(1);
  }
  for (const b of selected) {
    const figures = await b.run();
    for (const f of figures) {
      if (filters.length === 0 || filters.some((x) => b.name.includes(x) || f.name.includes(x)))
        console.log(`${f.name}: ${format(f.value)}`);
    }
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exit(1);
  },
);
