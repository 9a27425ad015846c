// What another extension gets from the installed package: `getExtension(id).activate()` resolves to the
// extension's exports, which any extension in the same host may call. They must reach nothing live: no client to
// send requests with, no registry, no store, no token or secret.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { extensionId, readManifest } from '../../../vscode/support/manifest';

/** Prototypes of plain data: an object made from one of these carries values, not behaviour. */
const PLAIN = new Set<unknown>([Object.prototype, Array.prototype, null]);
/** Names under which a handle on portals, sessions or secrets would be reached. */
const LIVE_NAME = /client|registry|session|store|token|secret|password|credential|auth|testing/i;
const MAX_NODES = 100_000;

/**
 * Every path from `root` to something that could act or hold a secret: a function (callable, so a handle on the
 * extension), an accessor (live state, read on demand), an instance of a class (a prototype other than Object's or
 * Array's), a Map or Set, or a key named like a client, token or secret. Walks own keys (symbols and
 * non-enumerable ones too) and prototypes, never calling a getter.
 */
function liveHandles(root: unknown): string[] {
  const found: string[] = [];
  const seen = new Set<unknown>();
  const queue: { value: unknown; path: string }[] = [{ value: root, path: 'exports' }];
  while (queue.length > 0 && seen.size < MAX_NODES) {
    const { value, path } = queue.shift() as { value: unknown; path: string };
    if ((typeof value !== 'object' && typeof value !== 'function') || value === null || seen.has(value)) continue;
    seen.add(value);
    if (typeof value === 'function') found.push(`${path}: a function`);
    const proto: unknown = Object.getPrototypeOf(value);
    if (typeof value === 'object' && !PLAIN.has(proto)) {
      found.push(`${path}: an instance of ${String((proto as { constructor?: { name?: string } }).constructor?.name)}`);
      queue.push({ value: proto, path: `${path}.[[Prototype]]` });
    }
    if (value instanceof Map || value instanceof Set) found.push(`${path}: a ${value.constructor.name}`);
    for (const key of Reflect.ownKeys(value)) {
      const name = String(key);
      const at = `${path}.${name}`;
      if (LIVE_NAME.test(name)) found.push(`${at}: named like a live handle`);
      const d = Object.getOwnPropertyDescriptor(value, key);
      if (!d) continue;
      if (d.get || d.set) {
        found.push(`${at}: an accessor`);
        continue;
      }
      queue.push({ value: d.value, path: at });
    }
  }
  return found;
}

describe('packaged .vsix: exports', () => {
  const id = extensionId(readManifest());

  it('the walker finds a live handle where there is one (a registry with a client method)', () => {
    class Registry {
      client(): string {
        return 'token';
      }
    }
    assert.notDeepEqual(liveHandles({ registry: new Registry() }), []);
    assert.deepEqual(liveHandles(undefined), []);
    assert.deepEqual(liveHandles(Object.freeze({ version: '1.0.0', features: ['a'] })), []);
  });

  it("another extension's activate() reaches no client, registry, token or secret", async () => {
    const ext = vscode.extensions.getExtension(id);
    assert.ok(ext, `${id} is installed`);
    const exported: unknown = await ext.activate();
    assert.ok(ext.isActive);
    assert.deepEqual(liveHandles(exported).slice(0, 20), [], 'what activate() hands to any extension');
    assert.deepEqual(liveHandles(ext.exports).slice(0, 20), [], 'Extension.exports');
  });
});
