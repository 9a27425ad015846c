// Bundles the in-VS-Code tests with esbuild: the run() entry (test/vscode/index.ts) and, per
// phase, one bundle of every test/vscode/suites/<phase>/**/*.test.ts; the .vsix probe gets the
// same run() entry with its own suites. `vscode` and `mocha` stay external (the extension host
// provides the first, the repository's node_modules the second).
//
// Usage as a script: node --import tsx test/host/bundle.ts
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { PROBE_DIR, PROBE_OUT_DIR, REPO_ROOT, VSCODE_TESTS_OUT_DIR } from './paths';

export const SUITES_DIR = path.join(REPO_ROOT, 'test', 'vscode', 'suites');
const RUN_ENTRY = path.join(REPO_ROOT, 'test', 'vscode', 'index.ts');
/** The phase the .vsix probe's suites are bundled as. */
export const PROBE_PHASE = 'vsix';
/** Phases with a known place in the sequence; any other phase runs after these, alphabetically. */
const PHASE_ORDER = ['main', 'restart'];

export interface TestBundles {
  /** Phases in the order they run, each with at least one suite file (opt-in phases included). */
  phases: string[];
  /** Phases that run only when named with --phase (their folder's phase.json says "runByDefault": false). */
  optIn: string[];
  /** out/vscode-tests/index.js */
  testsEntry: string;
  /** The probe extension's tests entry (out/vsix-probe/index.js). */
  probeEntry: string;
}

const common: esbuild.BuildOptions = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: ['vscode', 'mocha'],
  sourcemap: 'linked',
  logLevel: 'warning',
  absWorkingDir: REPO_ROOT,
};

/** Suite files of one folder, repository-relative, sorted so runs are reproducible. */
function testFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => path.join(dir, f))
    .sort();
}

export function discoverPhases(): string[] {
  if (!fs.existsSync(SUITES_DIR)) return [];
  const phases = fs
    .readdirSync(SUITES_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory() && testFiles(path.join(SUITES_DIR, d.name)).length > 0)
    .map((d) => d.name);
  const rank = (p: string): number => {
    const i = PHASE_ORDER.indexOf(p);
    return i === -1 ? PHASE_ORDER.length : i;
  };
  return phases.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/**
 * A phase folder may hold phase.json: {"runByDefault": false} for a phase that runs only when asked (a measurement,
 * say), {"locale": "qps-ploc"} for a phase whose workbench runs in that locale.
 */
export interface PhaseConfig {
  runByDefault: boolean;
  locale?: string;
}

export function readPhaseConfig(phase: string): PhaseConfig {
  const file = path.join(SUITES_DIR, phase, 'phase.json');
  if (!fs.existsSync(file)) return { runByDefault: true };
  const raw = JSON.parse(fs.readFileSync(file, 'utf8')) as { runByDefault?: unknown; locale?: unknown } | null;
  return {
    runByDefault: raw?.runByDefault !== false,
    ...(typeof raw?.locale === 'string' && raw.locale ? { locale: raw.locale } : {}),
  };
}

/** One bundle that imports every suite file, in order, through a generated entry. */
async function bundleSuites(files: string[], outfile: string, label: string): Promise<void> {
  const contents = files
    .map((f) => `import ${JSON.stringify(`./${path.relative(REPO_ROOT, f).split(path.sep).join('/')}`)};`)
    .join('\n');
  await esbuild.build({
    ...common,
    stdin: { contents: `${contents}\n`, resolveDir: REPO_ROOT, sourcefile: `<${label} suites>`, loader: 'ts' },
    outfile,
  });
}

export async function bundleTests(): Promise<TestBundles> {
  const phases = discoverPhases();
  fs.rmSync(VSCODE_TESTS_OUT_DIR, { recursive: true, force: true });
  fs.rmSync(PROBE_OUT_DIR, { recursive: true, force: true });

  const probeSuites = testFiles(path.join(PROBE_DIR, 'suites'));
  if (probeSuites.length === 0) throw new Error(`no probe suites in ${path.join(PROBE_DIR, 'suites')}`);

  const testsEntry = path.join(VSCODE_TESTS_OUT_DIR, 'index.js');
  const probeEntry = path.join(PROBE_OUT_DIR, 'index.js');
  await Promise.all([
    esbuild.build({ ...common, entryPoints: [RUN_ENTRY], outfile: testsEntry }),
    esbuild.build({ ...common, entryPoints: [RUN_ENTRY], outfile: probeEntry }),
    ...phases.map((phase) =>
      bundleSuites(
        testFiles(path.join(SUITES_DIR, phase)),
        path.join(VSCODE_TESTS_OUT_DIR, `suites-${phase}.js`),
        phase,
      ),
    ),
    bundleSuites(probeSuites, path.join(PROBE_OUT_DIR, `suites-${PROBE_PHASE}.js`), PROBE_PHASE),
  ]);
  return { phases, optIn: phases.filter((p) => !readPhaseConfig(p).runByDefault), testsEntry, probeEntry };
}

if (require.main === module) {
  bundleTests().then(
    (b) => {
      console.log(
        `bundled phases ${b.phases.join(', ') || '(none)'} into ${path.relative(REPO_ROOT, VSCODE_TESTS_OUT_DIR)}, probe into ${path.relative(REPO_ROOT, PROBE_OUT_DIR)}`,
      );
    },
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
