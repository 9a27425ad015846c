import type * as vscode from 'vscode';

/**
 * VS Code's Memento in memory, keeping what a real one keeps: a JSON copy of each value (so a test sees what a
 * reload would read back), and undefined as a removal.
 */
export function memoryMemento(): vscode.Memento {
  const store = new Map<string, unknown>();
  return {
    keys: () => [...store.keys()],
    get: <T>(key: string, fallback?: T) => (store.has(key) ? (store.get(key) as T) : fallback),
    update: (key: string, value: unknown) => {
      if (value === undefined) store.delete(key);
      else store.set(key, JSON.parse(JSON.stringify(value)) as unknown);
      return Promise.resolve();
    },
  } as vscode.Memento;
}
