/**
 * The `portal:` URIs this extension made, so that only those trigger a read of the portal. VS Code hands the file
 * system every `portal:` URI anyone names: a link in a README, a JSON file's `$schema` (resolved with no click, even
 * in Restricted Mode), another extension. Those get a placeholder that loads only on a click.
 *
 * Why a remembered list rather than a signature in the URI: nothing here is secret (the ids and names are what
 * VS Code already keeps to restore editors), so there is no key to guard, and a restored editor is trusted exactly
 * when this extension opened it before. The list is kept in globalState, bounded, most recent last.
 *
 * A URI is trusted with its query ("full": the query is what our own row knew) or by its path alone ("path": the
 * same document, with a query we did not write, or one a person chose to load): then the query is ignored, so it
 * can never decide the group or folders a document claims. No VS Code here.
 */

/** What VS Code's Memento offers, and all this needs of it. */
export interface MintedStorage {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): PromiseLike<void>;
}

export type Trust = 'full' | 'path';

/** A URI's parts as VS Code gives them (decoded). */
export interface UriParts {
  readonly authority: string;
  readonly path: string;
  readonly query: string;
}

const STORAGE_KEY = 'portal.documents.minted';
/** Enough for every editor a window restores; the oldest are dropped first. */
export const MAX_MINTED = 500;
/** Stands for "loaded by a person's click": the path is trusted, no query is. */
const NO_QUERY = '\u0000';

const pathKey = (u: UriParts): string => `${u.authority}${u.path}`;

export class MintedUris {
  /** Path key → the queries made with it; insertion order is recency. */
  private readonly minted = new Map<string, Set<string>>();

  constructor(private readonly storage: MintedStorage) {
    const saved = storage.get<unknown>(STORAGE_KEY);
    if (!Array.isArray(saved)) return;
    for (const entry of saved.slice(-MAX_MINTED)) {
      if (!Array.isArray(entry) || typeof entry[0] !== 'string' || !Array.isArray(entry[1])) continue;
      const queries = (entry[1] as unknown[]).filter((q): q is string => typeof q === 'string').slice(-8);
      this.minted.set(entry[0], new Set(queries));
    }
  }

  /** This extension made the URI (its query included): it is served at once, now and after a restart. */
  mint(uri: UriParts): void {
    this.add(pathKey(uri), uri.query);
  }

  /** A person chose to load the document: its path is trusted from now on, its query never. */
  trustPath(uri: UriParts): void {
    this.add(pathKey(uri), NO_QUERY);
  }

  /** 'full' for a URI made here, 'path' for the same document with another query, undefined for one never made. */
  trust(uri: UriParts): Trust | undefined {
    const queries = this.minted.get(pathKey(uri));
    if (!queries) return undefined;
    return queries.has(uri.query) ? 'full' : 'path';
  }

  private add(key: string, query: string): void {
    const queries = this.minted.get(key) ?? new Set<string>();
    queries.delete(query);
    queries.add(query);
    // A record's query changes with its size and date: only the latest few are worth keeping.
    while (queries.size > 8) queries.delete(queries.values().next().value as string);
    this.minted.delete(key);
    this.minted.set(key, queries);
    while (this.minted.size > MAX_MINTED) this.minted.delete(this.minted.keys().next().value as string);
    void this.storage.update(
      STORAGE_KEY,
      [...this.minted].map(([k, q]) => [k, [...q]]),
    );
  }
}
