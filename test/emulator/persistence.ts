// Optional persistence (--data FILE). Writes go to a temporary file that is flushed to disk and then
// renamed over the target, so a crash leaves either the old file or the new one, never a torn one.
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { TokenData } from './auth';
import type { Group, GroupPermission } from './model';
import type { StoreData } from './store';

const FORMAT = 'portal-emulator-state';
const VERSION = 1;
/** Writes are coalesced: a burst of changes costs one write. */
const DEBOUNCE_MS = 100;

type PersistedGroup = Omit<Group, 'members'> & { members: Array<[number, GroupPermission]> };

interface PersistedFile {
  format: typeof FORMAT;
  version: typeof VERSION;
  data: Omit<StoreData, 'groups'> & { groups: PersistedGroup[] };
  tokens: TokenData;
}

export interface State {
  data: StoreData;
  tokens: TokenData;
}

export function loadState(file: string): State | undefined {
  if (!existsSync(file)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`Emulator data file ${file} is not valid JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  const p = parsed as Partial<PersistedFile> | null;
  if (
    !p ||
    p.format !== FORMAT ||
    p.version !== VERSION ||
    !p.data ||
    !Array.isArray(p.data.users) ||
    !Array.isArray(p.data.groups)
  ) {
    throw new Error(`Emulator data file ${file} is not a ${FORMAT} version ${VERSION} file`);
  }
  const groups = p.data.groups.map((g): Group => ({ ...g, members: new Map(g.members) }));
  return { data: { ...p.data, groups }, tokens: p.tokens ?? { access: [], refresh: [] } };
}

export function writeStateAtomically(file: string, state: State): void {
  const body: PersistedFile = {
    format: FORMAT,
    version: VERSION,
    data: { ...state.data, groups: state.data.groups.map((g) => ({ ...g, members: [...g.members] })) },
    tokens: state.tokens,
  };
  const tmp = join(dirname(file), `.${basename(file)}.${process.pid}.tmp`);
  const fd = openSync(tmp, 'w');
  try {
    writeSync(fd, JSON.stringify(body));
    fsyncSync(fd);
  } catch (e) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw e;
  }
  closeSync(fd);
  renameSync(tmp, file);
}

export class Persistence {
  private timer: NodeJS.Timeout | undefined;
  private lastWritten = '';

  constructor(
    private readonly file: string,
    private readonly state: () => State,
    private readonly version: () => string,
    private readonly log: (line: string) => void,
  ) {}

  /** Called after every request; writes soon if anything changed since the last write. */
  changed(): void {
    if (this.timer || this.version() === this.lastWritten) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, DEBOUNCE_MS);
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    try {
      const version = this.version();
      writeStateAtomically(this.file, this.state());
      this.lastWritten = version;
    } catch (e) {
      this.log(`could not write ${this.file}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
}
